/**
 * Previous / next links for a list paged from a row (a cursor) or by position; the current
 * filters ride along in the query.
 */
import { pageHref, type PageLink, type QueryValues } from '../links.js';

/** Links to the first, previous and next pages of `path`, keeping `query`; the page's own empty state speaks for an empty page. */
export function PageLinks(props: {
  path: string;
  query: QueryValues;
  previous: PageLink | null;
  next: PageLink | null;
  shown: number;
  /** Whether this page is not the top of the list (a «first» link is offered). */
  deep: boolean;
  /** The words for the two directions. @default ["previous", "next"] */
  words?: readonly [string, string];
}) {
  const { path, query, previous, next, shown, deep } = props;
  const [back, on] = props.words ?? ['previous', 'next'];
  return (
    <nav class="pager" aria-label="pages">
      {deep && !(previous && 'first' in previous) && <a href={pageHref(path, query, { first: true })}>« first</a>}
      {previous && <a href={pageHref(path, query, previous)}>← {back}</a>}
      {shown > 0 && <span>{shown} shown</span>}
      {next && <a href={pageHref(path, query, next)}>{on} →</a>}
    </nav>
  );
}
