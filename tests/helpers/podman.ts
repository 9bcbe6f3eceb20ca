// podman as it runs on this machine, and the images the container tests use
// (tests/container/). No container registry is reachable here, so the base
// images the Dockerfile and compose.yaml name are stand-ins built from
// Debian's packages (tests/container/stand_ins/) and tagged with the
// official names, which the real Dockerfile and compose.yaml then find in
// podman's storage. Everything built is kept there, so the next run rebuilds
// nothing that did not change: the Debian base is made once, each stand-in
// again only when its recipe changes (a label holds the recipe's hash), and
// the app image reuses podman's layer cache.
//
// The helpers live by topic in tests/helpers/podman/; the container tests import them from here.
export * from "./podman/run.ts";
export * from "./podman/images.ts";
export * from "./podman/containers.ts";
export * from "./podman/resources.ts";
