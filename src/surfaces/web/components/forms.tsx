/** Pieces of the inspector's forms: the CSRF field every mutating form carries, and a notice. */
import { CSRF_FIELD } from '../csrf.js';

/** The session's CSRF token, as a hidden field. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

/** A one-line message above a page's content. */
export function Notice(props: { text: string | null; error?: boolean }) {
  if (!props.text) return null;
  return (
    <p class={props.error ? 'notice error' : 'notice'} role="status">
      {props.text}
    </p>
  );
}
