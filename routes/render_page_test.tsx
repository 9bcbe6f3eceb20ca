import { describe, it } from "node:test";
import { expect } from "expect";
import { keptMarkup } from "./render_page.tsx";
import { Island } from "../components/Island.tsx";

describe("keptMarkup", () => {
  it("renders once per source object and again for a new one", () => {
    let renders = 0;
    const make = (source: { n: number }) => () => {
      renders++;
      return <p className="count">{source.n}</p>;
    };
    const kept = { n: 1 };
    const first = keptMarkup(kept, make(kept));
    const again = keptMarkup(kept, make(kept));
    expect(first.keptHtml).toBe('<p class="count">1</p>');
    expect(again).toBe(first);
    expect(renders).toBe(1);
    // A write drops the kept read: the next read is a new object, rendered afresh.
    const fresh = { n: 2 };
    expect(keptMarkup(fresh, make(fresh)).keptHtml).toBe('<p class="count">2</p>');
    expect(renders).toBe(2);
  });

  it("refuses content holding an island, whose ids come from the whole page", () => {
    const Hello = () => <p>Hello</p>;
    expect(() => keptMarkup({}, () => <Island name="Hello" component={Hello} props={{}} />))
      .toThrow("Kept markup cannot hold islands.");
  });
});
