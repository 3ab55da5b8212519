/**
 * A store URL as messages may show it: the password blanked. A URL that does not parse loses
 * everything between `://` and the last `@`, so a password holding `@` never shows in part.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/is, '$1***@');
  }
}
