import { type ComponentType, useContext, useId } from "react";
import { renderToString } from "react-dom/server";
import { QueryClientProvider } from "@tanstack/react-query";
import { IslandCollector } from "./island_context.ts";
import { makeQueryClient } from "./query_client.ts";
import { IslandRoot } from "./island_root.tsx";
import { QUERY_ISLANDS } from "./query_islands.ts";
import { flatString } from "../src/http/flat_string.ts";

/** JSON inside <script> must not be able to close the tag or open a comment. */
export function serializeProps(props: unknown): string {
  return JSON.stringify(props)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

interface Rendered {
  html: string;
  json: string;
}

/**
 * Renderings of props objects that are kept between requests (a page's props
 * read through src/db/read_through.ts are the same object until a table they
 * come from is written): an island renders from its props alone, so the same
 * object, name and id prefix give the same markup, and it is made once. Fresh
 * props objects of other pages are simply never found again.
 */
const renderings = new WeakMap<object, Map<string, Rendered>>();

function renderIsland<P extends object>(
  name: string,
  Component: ComponentType<P>,
  props: P,
  idPrefix: string,
): Rendered {
  const key = `${name}:${idPrefix}`;
  const kept = renderings.get(props)?.get(key);
  if (kept) return kept;
  // The same tree as islands/_entry.tsx hydrates: the provider only for an
  // island that uses react-query.
  const island = <Component {...props} />;
  // Flat once, so the answers that reuse it copy it instead of walking its pieces.
  const rendered = {
    html: flatString(renderToString(
      <IslandRoot>
        {QUERY_ISLANDS.has(name)
          ? <QueryClientProvider client={makeQueryClient()}>{island}</QueryClientProvider>
          : island}
      </IslandRoot>,
      { identifierPrefix: idPrefix },
    )),
    json: serializeProps(props),
  };
  let byKey = renderings.get(props);
  if (!byKey) renderings.set(props, byKey = new Map());
  byKey.set(key, rendered);
  return rendered;
}

/**
 * Renders an island on the server and leaves what the browser needs to
 * hydrate it: the island name on the wrapper and its props as JSON beside it.
 * Props must be plain JSON (dates as ISO strings).
 */
export function Island<P extends object>(
  { name, component: Component, props }: {
    name: string;
    component: ComponentType<P>;
    props: P;
  },
) {
  const collector = useContext(IslandCollector);
  collector?.add(name);
  const key = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const id = `island-${key}`;
  // Rendered as a root of its own, exactly as the browser hydrates it, with a
  // prefix so two islands on one page never produce the same ids.
  const idPrefix = `${key}-`;
  const { html, json } = renderIsland(name, Component, props, idPrefix);
  return (
    <>
      <div
        data-island={name}
        data-props={id}
        data-id-prefix={idPrefix}
        className="island"
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <script
        type="application/json"
        id={id}
        dangerouslySetInnerHTML={{ __html: json }}
      />
    </>
  );
}
