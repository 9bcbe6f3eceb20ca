// The staff bar's global search: a combobox (ARIA 1.2 pattern) over clients
// and quotes. It is on every staff page, so it stays small: React (in the
// entry already) and the box itself. Its query (react-query and the API
// helper, components/search/search_query.tsx) is loaded when the box is first
// focused or typed in, so it is there before the third character and a page
// that only shows the bar (the signed-in intake) does not carry react-query.
import { type ComponentType, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { SEARCH_MIN_CHARS, type SearchResult } from "../src/search/views.ts";
import { dismissMenusOnEscapeAndOutsideClick } from "../components/menu_dismiss.ts";
import type { SearchQueryProps, SearchState } from "../components/search/search_query.tsx";

// The staff bar's Menu closes the way menus do (Escape, a click outside). This
// box is the bar's one island, so that code comes with the bar and stays off
// the pages a client holds (their 90 KB budget has no room to spare).
if (typeof document !== "undefined") dismissMenusOnEscapeAndOutsideClick(document);

const DEBOUNCE_MS = 250;
const TYPE_LABELS: Record<SearchResult["type"], string> = {
  client: "Client",
  quote: "Quote",
  job: "Job",
};
const GROUP_LABELS: Record<SearchResult["type"], string> = {
  client: "Clients",
  quote: "Quotes",
  job: "Jobs",
};

type SearchQuery = ComponentType<SearchQueryProps>;
let loading: Promise<SearchQuery> | undefined;

/** The search's query part, asked for once; after a failed load (offline), again. */
function loadSearchQuery(): Promise<SearchQuery> {
  loading ??= import("../components/search/search_query.tsx").then((m) => m.SearchQuery);
  loading.catch(() => (loading = undefined));
  return loading;
}

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Results grouped by type, in the order the best of each type came. */
function groupByType(results: SearchResult[]) {
  const groups: { type: SearchResult["type"]; items: SearchResult[] }[] = [];
  for (const result of results) {
    let group = groups.find((g) => g.type === result.type);
    if (!group) groups.push(group = { type: result.type, items: [] });
    group.items.push(result);
  }
  return groups;
}

/** "/" anywhere but in a field moves to the search box, as on many sites. */
function useSlashToFocus(input: { current: HTMLInputElement | null }) {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
      const target = event.target as HTMLElement | null;
      if (
        target?.isContentEditable ||
        target?.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])")
      ) return;
      event.preventDefault();
      input.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [input]);
}

export default function SearchBox() {
  const id = useId();
  const listId = `${id}-results`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useSlashToFocus(input);

  // The query part once loaded, and where it says the search stands.
  const [Query, setQuery] = useState<SearchQuery | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [search, setSearch] = useState<SearchState | null>(null);
  function loadQuery() {
    if (Query) return;
    setLoadFailed(false);
    loadSearchQuery().then((component) => setQuery(() => component), () => setLoadFailed(true));
  }

  const typed = text.trim();
  const term = useDebounced(typed, DEBOUNCE_MS);
  const enabled = term.length >= SEARCH_MIN_CHARS;
  const current = search?.term === term ? search : null;
  const pending = current ? current.fetching || current.status === "pending" : !loadFailed;
  const failed = current ? current.status === "error" : loadFailed;
  const settled = enabled && term === typed && current?.status === "success" && !current.fetching;
  const results = (settled && current.data) || [];
  const groups = groupByType(results);
  const options = groups.flatMap((g) => g.items);

  // A new answer starts with nothing highlighted.
  useEffect(() => setActive(-1), [term, current?.data]);

  let hint = "";
  if (typed.length < SEARCH_MIN_CHARS) hint = "Type 3+ characters to search";
  else if (term !== typed || pending) hint = "Searching...";
  else if (failed) hint = "Search failed. Please try again.";
  else if (options.length === 0) hint = "No results found";

  const panelOpen = open && typed.length > 0;
  const expanded = panelOpen && options.length > 0;

  function choose(result: SearchResult) {
    setOpen(false);
    location.assign(result.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) =>
        i < 0 ? (step > 0 ? 0 : options.length - 1) : (i + step + options.length) % options.length
      );
    } else if (event.key === "Enter") {
      const chosen = options[active] ?? (expanded ? options[0] : undefined);
      if (chosen) {
        event.preventDefault();
        choose(chosen);
      }
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (panelOpen) setOpen(false);
      else setText("");
      setActive(-1);
    }
  }

  const status = panelOpen
    ? hint || `${options.length} result${options.length === 1 ? "" : "s"}`
    : "";

  return (
    <div className="staff-search">
      <label htmlFor={`${id}-input`} className="sr-only">Search clients and quotes</label>
      <input
        ref={input}
        id={`${id}-input`}
        className="staff-search-input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={`${id}-keys`}
        placeholder="Search..."
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          loadQuery();
        }}
        onFocus={() => {
          setOpen(true);
          loadQuery();
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <kbd className="staff-search-key" aria-hidden="true">/</kbd>
      <span id={`${id}-keys`} className="sr-only">Press slash to come here from anywhere.</span>
      {/* Says what the panel shows, for screen readers, as it changes. */}
      <span role="status" className="sr-only">{status}</span>
      <div className="staff-search-panel" hidden={!panelOpen}>
        <p className="staff-search-hint" hidden={!hint}>{hint}</p>
        <div role="listbox" id={listId} aria-label="Search results" hidden={!expanded}>
          {groups.map((group) => (
            <div
              key={group.type}
              role="group"
              aria-labelledby={`${id}-group-${group.type}`}
              className="staff-search-group"
            >
              <div
                id={`${id}-group-${group.type}`}
                role="presentation"
                className="staff-search-group-label"
              >
                {GROUP_LABELS[group.type]}
              </div>
              {group.items.map((result) => {
                const index = options.indexOf(result);
                return (
                  <div
                    key={`${result.type}-${result.id}`}
                    id={optionId(index)}
                    role="option"
                    aria-selected={index === active}
                    className="staff-search-option"
                    // Keeps the focus in the box, so choosing is a click, not a blur.
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => setActive(index)}
                    onClick={() => choose(result)}
                  >
                    <span className="staff-search-text">
                      <span className="staff-search-title">{result.title}</span>
                      {result.subtitle && (
                        <span className="staff-search-subtitle">{result.subtitle}</span>
                      )}
                    </span>
                    <span className="staff-search-type">{TYPE_LABELS[result.type]}</span>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      </div>
      {Query && <Query term={term} onState={setSearch} />}
    </div>
  );
}
