# Lensdesk staff tool. Build: docker build -t lensdesk .
# glibc base on purpose: @node-rs/argon2 loads its linux-x64-gnu prebuilt.
ARG DENO_VERSION=2.9.6

# --- deps: only the manifest and lock, so this layer is reused until they change.
FROM denoland/deno:debian-${DENO_VERSION} AS deps
WORKDIR /app
COPY deno.json deno.lock ./
# --frozen fails the build if deno.lock does not match deno.json.
RUN deno install --frozen

# --- build: browser bundle and module cache, so nothing is fetched or built at boot.
FROM deps AS build
COPY . .
# build.ts fetches esbuild into DENO_DIR/dl for `deno bundle`; the runtime does not need it.
RUN deno task build \
 && deno cache --frozen main.ts db/migrations/*.ts \
 && rm -rf /deno-dir/dl

# --- runtime
FROM denoland/deno:debian-${DENO_VERSION} AS runtime
ENV HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/app/data \
    DENO_NO_UPDATE_CHECK=1
WORKDIR /app
# DENO_DIR stays writable by the app user (Deno caches transpiled modules there);
# the app code stays root-owned, so the process cannot rewrite it.
COPY --from=build --chown=deno:deno /deno-dir /deno-dir
COPY --from=build /app /app
# Created before VOLUME so a fresh named volume inherits the ownership.
RUN mkdir -p /app/data && chown deno:deno /app/data
VOLUME /app/data
USER deno
EXPOSE 8000
# main.ts closes the server and the database on SIGTERM; tini (the image's PID 1) forwards it.
STOPSIGNAL SIGTERM
# --no-config: the probe needs neither deno.json nor node_modules.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["deno", "eval", "--no-config", "const r = await fetch('http://127.0.0.1:8000/healthz'); Deno.exit(r.ok ? 0 : 1)"]
# Same permissions as `deno task start`, without its rebuild; --cached-only: no network at boot.
CMD ["deno", "run", "--cached-only", "--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-run", "--allow-sys", "--allow-ffi", "main.ts"]
