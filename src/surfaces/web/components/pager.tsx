/** Previous / next links for a paged list; the current filters ride along in the query. */
import { type QueryValues, withQuery } from '../links.js';

/** Links to the previous and next pages of `path`, keeping `query`; the page's own empty state speaks for an empty page. */
export function Pager(props: {
  path: string;
  query: QueryValues;
  offset: number;
  previousOffset: number | null;
  nextOffset: number | null;
  shown: number;
}) {
  const { path, query, offset, previousOffset, nextOffset, shown } = props;
  const first = offset + 1;
  return (
    <nav class="pager" aria-label="pages">
      {offset > 0 && (
        <a href={withQuery(path, { ...query, offset: previousOffset ?? undefined })}>
          {previousOffset === null ? '« first' : '← previous'}
        </a>
      )}
      {shown > 0 && <span>{`from position ${first.toLocaleString('en-US')}, ${shown} shown`}</span>}
      {nextOffset !== null && <a href={withQuery(path, { ...query, offset: nextOffset })}>next →</a>}
    </nav>
  );
}
