/** The sign-in form of a server with tokens: the token goes in a password field and a POST body, never a URL. */
import { CsrfField, Notice } from '../components/forms.js';
import { Layout } from '../layout.js';

/** `csrfToken`: the sign-in form's own token (`sign-in-token.ts`), there being no session yet. */
export function SignInPage(props: { next: string; error: string | null; csrfToken: string }) {
  return (
    <Layout title="Sign in" chrome={null}>
      <div class="signin">
        <h1>Sign in to the inspector</h1>
        <p class="muted">
          This server asks for a bearer token (<code>ENGRAM_TOKEN</code> or one of <code>ENGRAM_TOKENS</code>). The inspector
          shows the memories of that token’s tenant only.
        </p>
        <Notice text={props.error} error />
        <form method="post" action="/sign-in">
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="next" value={props.next} />
          <label>
            Token
            <br />
            <input type="password" name="token" autocomplete="current-password" required autofocus size={40} />
          </label>
          <button class="primary" type="submit">
            Sign in
          </button>
        </form>
      </div>
    </Layout>
  );
}
