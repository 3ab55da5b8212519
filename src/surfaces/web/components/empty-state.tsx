/**
 * What a page or a part of one says when it has nothing to show: always a sentence that says
 * what would fill it (`No memories yet. Add one with …`), never a bare "none". The class
 * `empty` marks it, so the browser tests can read every one.
 */
import type { Child } from 'hono/jsx';

/** An empty list or section, in a sentence. */
export function EmptyState(props: { children?: Child }) {
  return <p class="muted empty">{props.children}</p>;
}
