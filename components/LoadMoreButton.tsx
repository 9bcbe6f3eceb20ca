/** The next page of a long list, fetched on request so first paint stays small. */
export function LoadMoreButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  return (
    <div className="load-more">
      <button type="button" className="btn btn-outline" onClick={onClick} disabled={loading}>
        {loading ? "Loading..." : "Load more"}
      </button>
    </div>
  );
}
