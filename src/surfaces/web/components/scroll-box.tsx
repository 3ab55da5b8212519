/**
 * A box that scrolls sideways on its own: a table wider than the screen (a receipt's sixteen
 * columns on a phone) scrolls inside it, and the page itself never scrolls sideways.
 */
import type { Child } from 'hono/jsx';

/** Wraps a wide table so it scrolls inside its own box. */
export function ScrollBox(props: { children?: Child }) {
  return <div class="scroll">{props.children}</div>;
}
