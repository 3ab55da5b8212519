/** What a failed request shows: the status and a message that says what to do. */
import type { PageChrome } from '../layout.js';
import { Layout } from '../layout.js';

/** A failed request's page; `chrome` null when the failure came before a session. */
export function ErrorPage(props: { status: number; message: string; chrome: PageChrome | null }) {
  const title = props.status === 404 ? 'Not found' : props.status === 403 ? 'Refused' : `Error ${props.status}`;
  return (
    <Layout title={title} chrome={props.chrome}>
      <h1>{title}</h1>
      <p class="notice error">{props.message}</p>
      <p>
        <a href="/memories">Back to the memories</a>
      </p>
    </Layout>
  );
}
