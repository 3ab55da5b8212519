/** The handoff note and the scratchpad of each scope (seed 003), with the handoffs they replaced. */
import type { Memory } from '../../../index.js';
import { EmptyState } from '../components/empty-state.js';
import { formatTime, oneLine } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { memoryHref } from '../links.js';
import type { NotesView } from '../loaders/notes.js';

/** The handoff notes and scratchpads. */
export function NotesPage(props: { view: NotesView; chrome: PageChrome }) {
  const { handoffs, scratchpads, earlierHandoffs } = props.view;
  return (
    <Layout title="Handoff and scratchpad" chrome={props.chrome}>
      <h1>Handoff and scratchpad</h1>
      <h2>Handoff notes</h2>
      <p class="muted">The note one session leaves the next (write_session_handoff): first in the next session’s context.</p>
      <NoteCards
        notes={handoffs}
        empty='No handoff note yet. A session leaves one for the next with write_session_handoff, or engram handoff "…".'
      />
      {earlierHandoffs.length > 0 && (
        <details>
          <summary>{earlierHandoffs.length} earlier handoff notes</summary>
          <ul>
            {earlierHandoffs.map((note) => (
              <li>
                {formatTime(note.createdAt)} · {note.scope} · <a href={memoryHref(note.id)}>{oneLine(note.text, 120)}</a>
              </li>
            ))}
          </ul>
        </details>
      )}
      <h2>Scratchpads</h2>
      <p class="muted">The current task’s notes (scratch_note): in the working context until cleared.</p>
      <NoteCards
        notes={scratchpads}
        empty='No scratchpad is open. An agent writes one with scratch_note, or engram scratch "…"; clearing it closes it.'
      />
    </Layout>
  );
}

function NoteCards(props: { notes: readonly Memory[]; empty: string }) {
  if (props.notes.length === 0) return <EmptyState>{props.empty}</EmptyState>;
  return (
    <div class="grid">
      {props.notes.map((note) => (
        <section class="card">
          <h3>
            {note.scope} <span class="muted">· {formatTime(note.updatedAt)}</span>
          </h3>
          <pre>{note.text}</pre>
          <a href={memoryHref(note.id)}>{note.id}</a>
        </section>
      ))}
    </div>
  );
}
