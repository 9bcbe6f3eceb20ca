import { describe, it } from "node:test";
import { expect } from "expect";
import { renderToString } from "react-dom/server";
import { Island, serializeProps } from "./Island.tsx";
import { IslandCollector } from "./island_context.ts";

describe("serializeProps", () => {
  it("cannot close the script tag it lives in", () => {
    const json = serializeProps({ note: "</script><script>alert(1)</script>&\u2028" });
    expect(json).not.toContain("<");
    expect(json).not.toContain(">");
    expect(JSON.parse(json).note).toBe("</script><script>alert(1)</script>&\u2028");
  });
});

describe("Island", () => {
  it("renders the component, its props as JSON, and registers its name", () => {
    const seen = new Set<string>();
    const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;
    const html = renderToString(
      <IslandCollector.Provider value={seen}>
        <Island name="Hello" component={Hello} props={{ name: "Ana" }} />
      </IslandCollector.Provider>,
    );
    expect(html).toContain('data-island="Hello"');
    expect(html).toContain("Hello <!-- -->Ana");
    expect(html).toMatch(/<script type="application\/json" id="island-[^"]+">\{"name":"Ana"\}/);
    expect([...seen]).toEqual(["Hello"]);
  });

  it("renders the same props object once, however many pages show it", () => {
    let renders = 0;
    const Counted = ({ name }: { name: string }) => {
      renders++;
      return <p>Hi {name}</p>;
    };
    const page = (props: { name: string }) =>
      renderToString(<Island name="Counted" component={Counted} props={props} />);
    const kept = { name: "Ana" };
    const first = page(kept);
    expect(page(kept)).toBe(first);
    expect(renders).toBe(1);
    // Equal but fresh props (every page that does not keep its reads) render anew.
    expect(page({ name: "Ana" })).toBe(first);
    expect(renders).toBe(2);
    expect(page({ name: "Bo" })).toContain("Bo");
    expect(renders).toBe(3);
  });
});
