/**
 * One memory: its text and every field, the forms that change it (tier, pinned, hard rule,
 * tags; forget or restore), the versions that replaced it, the turns that injected it, and
 * the graph entities it names.
 */
import { INTERNAL_KINDS, TIERS } from '../../../entries/model.js';
import type { GraphEntity } from '../../../entries/tools.js';
import type { Kind, Memory } from '../../../index.js';
import { MemoryBadges } from '../components/badges.js';
import { EmptyState } from '../components/empty-state.js';
import { CsrfField, Notice } from '../components/forms.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatTime, oneLine } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { entityHref, memoryActionHref, memoryHref, receiptsHref, sessionHref, withQuery } from '../links.js';
import { tagsText } from '../loaders/memory-changes.js';
import { INJECTIONS_PAGE, type MemoryDetailView } from '../loaders/memory-detail.js';

/** The page of one memory; `notice` is a fixed text after a change (post/redirect/get). */
export function MemoryPage(props: { view: MemoryDetailView; chrome: PageChrome; notice: string | null }) {
  const { memory } = props.view;
  return (
    <Layout title={`Memory ${memory.id}`} chrome={props.chrome}>
      <h1>
        Memory <span class="id">{memory.id}</span>
      </h1>
      <Notice text={props.notice} />
      <p>
        <MemoryBadges memory={memory} />
      </p>
      <InternalNote memory={memory} />
      <pre class="text">{memory.text}</pre>
      <ChangeForms memory={memory} csrfToken={props.chrome.csrfToken} />
      <FieldTable memory={memory} />
      <Supersession memory={memory} newerVersions={props.view.newerVersions} />
      <RecallHistory view={props.view} />
      <Mentions mentions={props.view.mentions} />
    </Layout>
  );
}

/** What an internal record is, and where it has its own page (lists and search leave it out). */
function InternalNote(props: { memory: Memory }) {
  const { kind } = props.memory;
  if (!(INTERNAL_KINDS as readonly Kind[]).includes(kind)) return null;
  const page = kind === 'working_set' ? <a href="/working-set">Working set</a> : <a href="/notes">{'Handoff & scratchpad'}</a>;
  return (
    <p class="muted">
      One of Engram’s internal records ({kind}): lists and search leave it out unless asked, and it has its own page, {page}.
    </p>
  );
}

/** The edit form (tier, pinned, hard rule, tags), and Forget or Restore. */
function ChangeForms(props: { memory: Memory; csrfToken: string }) {
  const { memory } = props;
  return (
    <>
      <h2>Change</h2>
      <form class="edit" method="post" action={memoryActionHref(memory.id, 'edit')}>
        <CsrfField token={props.csrfToken} />
        <label for="tier">Tier</label>
        <select id="tier" name="tier">
          {TIERS.map((tier) => (
            <option value={tier} selected={memory.tier === tier}>
              {tier}
            </option>
          ))}
        </select>
        <label for="pinned">Pinned</label>
        <input id="pinned" type="checkbox" name="pinned" checked={memory.pinned} />
        <label for="hardRule">Hard rule</label>
        <input id="hardRule" type="checkbox" name="hardRule" checked={memory.hardRule} />
        <label for="tags">Tags</label>
        <input id="tags" type="text" name="tags" value={tagsText(memory.tags)} placeholder="comma-separated" />
        <div class="actions">
          <button class="primary" type="submit">
            Save
          </button>
        </div>
      </form>
      <div class="actions-row">
        {memory.archivedAt === null ? (
          <form class="inline" method="post" action={memoryActionHref(memory.id, 'forget')}>
            <CsrfField token={props.csrfToken} />
            <button class="danger" type="submit">
              Forget (archive)
            </button>
          </form>
        ) : (
          <form class="inline" method="post" action={memoryActionHref(memory.id, 'restore')}>
            <CsrfField token={props.csrfToken} />
            <button type="submit">Restore</button>
          </form>
        )}
        <span class="muted">Forgetting archives: the memory leaves search and recall but stays in the database and exports.</span>
      </div>
    </>
  );
}

/** Every field of the memory. */
function FieldTable(props: { memory: Memory }) {
  const { memory } = props;
  return (
    <>
      <h2>Fields</h2>
      <table class="fields">
        <tbody>
          <Field name="id" value={memory.id} />
          <Field name="kind" value={memory.kind} />
          <Field name="tier" value={memory.tier} />
          <Field name="scope" value={memory.scope} />
          <Field name="tenant" value={memory.tenant} />
          <Field name="pinned" value={String(memory.pinned)} />
          <Field name="hard rule" value={String(memory.hardRule)} />
          <Field name="abstract" value={memory.abstract} />
          <Field name="context" value={memory.context} />
          <Field name="key" value={memory.key} />
          <tr>
            <th>session</th>
            <td>{memory.sessionId ? <a href={sessionHref(memory.sessionId)}>{memory.sessionId}</a> : '—'}</td>
          </tr>
          <Field name="source" value={`${memory.source} (trust ${memory.trust})`} />
          <Field name="tags" value={memory.tags.length > 0 ? memory.tags.join(', ') : null} />
          <tr>
            <th>data</th>
            <td>{memory.data ? <pre>{JSON.stringify(memory.data, null, 2)}</pre> : '—'}</td>
          </tr>
          <Field name="occurred" value={formatTime(memory.occurredAt)} />
          <Field name="created" value={formatTime(memory.createdAt)} />
          <Field name="updated" value={formatTime(memory.updatedAt)} />
          <tr>
            <th>superseded by</th>
            <td>{memory.supersededBy ? <a href={memoryHref(memory.supersededBy)}>{memory.supersededBy}</a> : '—'}</td>
          </tr>
          <Field name="archived" value={formatTime(memory.archivedAt)} />
          <Field
            name="retrieved"
            value={`${memory.retrievalCount} times${memory.lastRetrievedAt ? `, last ${formatTime(memory.lastRetrievedAt)}` : ''}`}
          />
        </tbody>
      </table>
    </>
  );
}

/** The versions that replaced the memory, oldest first. */
function Supersession(props: { memory: Memory; newerVersions: readonly Memory[] }) {
  const { memory, newerVersions } = props;
  return (
    <>
      <h2>Supersession</h2>
      {newerVersions.length === 0 ? (
        <p class="muted">{memory.supersededBy ? 'The newer version is no longer stored.' : 'This is the current version.'}</p>
      ) : (
        <ol>
          <li>
            <span class="id">{memory.id}</span> (this one) — {oneLine(memory.text, 100)}
          </li>
          {newerVersions.map((newer) => (
            <li>
              replaced by <a href={memoryHref(newer.id)}>{newer.id}</a> on {formatTime(newer.createdAt)} —{' '}
              {oneLine(newer.text, 100)}
              {newer.supersededBy === null && newer.archivedAt === null && <span class="badge nice">current</span>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** The turns that injected the memory, the latest first, a page at a time. */
function RecallHistory(props: { view: MemoryDetailView }) {
  const { memory, injections, injectionsOffset, nextInjections } = props.view;
  const page = (offset: number) => withQuery(memoryHref(memory.id), { injections: offset || undefined });
  return (
    <>
      <h2>Recall history</h2>
      <p class="muted">
        Retrieved {memory.retrievalCount} times{memory.lastRetrievedAt ? `, last ${formatTime(memory.lastRetrievedAt)}` : ''}. The
        turns that injected it, latest first (each turn's receipt says why):
      </p>
      {injections.length === 0 ? (
        <EmptyState>
          {injectionsOffset > 0
            ? 'No earlier turn injected it: the list ends here.'
            : 'No turn has injected it yet: a turn that recalls it, or pins it through the working set, is listed here.'}
        </EmptyState>
      ) : (
        <ScrollBox>
          <table class="injections">
            <thead>
              <tr>
                <th>When</th>
                <th>Session</th>
                <th>Turn</th>
                <th>Lane</th>
              </tr>
            </thead>
            <tbody>
              {injections.map((injection) => (
                <tr>
                  <td>{formatTime(injection.at)}</td>
                  <td>
                    <a href={sessionHref(injection.sessionId)}>{oneLine(injection.sessionId, 30)}</a>
                  </td>
                  <td>
                    <a href={receiptsHref(injection.sessionId, injection.turn)}>{injection.turn}</a>
                  </td>
                  <td>{injection.lane}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {(injectionsOffset > 0 || nextInjections !== null) && (
        <nav class="pager" aria-label="injection pages">
          {injectionsOffset > 0 && <a href={page(Math.max(0, injectionsOffset - INJECTIONS_PAGE))}>← later</a>}
          {nextInjections !== null && <a href={page(nextInjections)}>earlier →</a>}
        </nav>
      )}
    </>
  );
}

/** The graph entities the memory names. */
function Mentions(props: { mentions: readonly GraphEntity[] }) {
  const { mentions } = props;
  return (
    <>
      <h2>Mentions</h2>
      {mentions.length === 0 ? (
        <EmptyState>
          It names no entity of the knowledge graph: extraction records the people, places and things a memory names.
        </EmptyState>
      ) : (
        <p>
          {mentions.map((entity) => (
            <>
              <a href={entityHref(entity.name)}>{entity.name}</a> <span class="muted">({entity.entityType})</span>{' '}
            </>
          ))}
        </p>
      )}
    </>
  );
}

function Field(props: { name: string; value: string | null }) {
  return (
    <tr>
      <th>{props.name}</th>
      <td class="text">{props.value ?? '—'}</td>
    </tr>
  );
}
