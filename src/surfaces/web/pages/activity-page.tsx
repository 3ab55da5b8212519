/** The daily activity log (seed 003): one line per write, newest first. */
import type { ActivityEntry } from '../../../entries/model.js';
import { EmptyState } from '../components/empty-state.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatTime } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { memoryHref } from '../links.js';
import { MAX_ACTIVITY } from '../loaders/notes.js';

/** The activity log of one day, or its latest lines. */
export function ActivityPage(props: { entries: readonly ActivityEntry[]; day: string | undefined; chrome: PageChrome }) {
  return (
    <Layout title="Activity" chrome={props.chrome}>
      <h1>Activity log</h1>
      <form class="filters" method="get" action="/activity">
        <label>
          Day (UTC)
          <input type="date" name="day" value={props.day ?? ''} />
        </label>
        <button type="submit">Show</button>
        <a href="/activity">latest</a>
      </form>
      <p class="muted">{props.day ? `Every line of ${props.day}` : `The latest ${MAX_ACTIVITY} lines at most`}, newest first.</p>
      {props.entries.length === 0 ? (
        <EmptyState>
          {props.day
            ? `Nothing was logged on ${props.day}: every write (an add, an edit, a forget, an import, a tool’s write) adds a line on the day it happens.`
            : 'Nothing logged yet. Every write (an add, an edit, a forget, an import, a tool’s write) adds a line here.'}
        </EmptyState>
      ) : (
        <ScrollBox>
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Action</th>
                <th>Key</th>
                <th>Summary</th>
              </tr>
            </thead>
            <tbody>
              {props.entries.map((entry) => (
                <tr>
                  <td>{formatTime(entry.at)}</td>
                  <td>{entry.action}</td>
                  <td>{entry.key ?? '—'}</td>
                  <td class="text">
                    {entry.memoryId ? <a href={memoryHref(entry.memoryId)}>{entry.summary}</a> : entry.summary}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </Layout>
  );
}
