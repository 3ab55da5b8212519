/** The memories list: search, filters, and one page of results. */
import { KINDS, SEARCH_MODES, TIERS } from '../../../entries/model.js';
import { Notice } from '../components/forms.js';
import { MemoryTable } from '../components/memory-table.js';
import { PageLinks } from '../components/page-links.js';
import { ScrollBox } from '../components/scroll-box.js';
import { Layout, type PageChrome } from '../layout.js';
import { emptyListSentence, type MemoryListFilters, type MemoryListView } from '../loaders/memory-list.js';

const FLAGS = [
  ['', 'any'],
  ['pinned', 'pinned'],
  ['hard_rule', 'hard rule'],
] as const;
const INTERNAL = [
  ['', 'hidden'],
  ['true', 'shown'],
] as const;
const STATUSES = [
  ['live', 'live'],
  ['all', 'all'],
  ['archived', 'archived only'],
  ['superseded', 'superseded only'],
] as const;

/** The memories list; `notice` is a fixed text after a change. */
export function MemoriesPage(props: { view: MemoryListView; chrome: PageChrome; notice: string | null }) {
  const { view } = props;
  const { filters } = view;
  const searching = Boolean(filters.q);
  return (
    <Layout title="Memories" chrome={props.chrome}>
      <h1>Memories</h1>
      <Notice text={props.notice} />
      <FilterForm filters={filters} />
      <Notice text={view.note} />
      <ScrollBox>
        <MemoryTable rows={view.rows} search={searching} empty={emptyListSentence(filters)} />
      </ScrollBox>
      {filters.internal !== 'true' && (
        <p class="muted">
          Engram’s internal records (working sets, handoff notes, scratchpads) are not listed: they have their own pages,{' '}
          <a href="/working-set">Working set</a> and <a href="/notes">{'Handoff & scratchpad'}</a>, and the Internal records
          filter shows them here too.
        </p>
      )}
      <PageLinks
        path="/memories"
        query={{ ...filters, done: undefined }}
        previous={view.previous}
        next={view.next}
        shown={view.rows.length}
        deep={view.previous !== null}
        words={searching ? ['previous', 'next'] : ['newer', 'older']}
      />
    </Layout>
  );
}

function FilterForm(props: { filters: MemoryListFilters }) {
  const { filters } = props;
  return (
    <form class="filters" method="get" action="/memories" role="search">
      <label>
        Search
        <input type="search" name="q" value={filters.q ?? ''} placeholder="words or meaning" />
      </label>
      <label>
        Scope
        <input type="text" name="scope" value={filters.scope ?? ''} placeholder="any" size={14} />
      </label>
      <Choice
        name="kind"
        label="Kind"
        value={filters.kind}
        options={[['', 'any'], ...KINDS.map((kind) => [kind, kind] as const)]}
      />
      <Choice
        name="tier"
        label="Tier"
        value={filters.tier}
        options={[['', 'any'], ...TIERS.map((tier) => [tier, tier] as const)]}
      />
      <Choice name="flag" label="Flag" value={filters.flag} options={FLAGS} />
      <Choice name="status" label="Status" value={filters.status ?? 'live'} options={STATUSES} />
      <Choice name="internal" label="Internal records" value={filters.internal} options={INTERNAL} />
      <Choice
        name="mode"
        label="Search mode"
        value={filters.mode}
        options={[
          ['', 'hybrid (default)'],
          ...SEARCH_MODES.filter((mode) => mode !== 'hybrid').map((mode) => [mode, mode] as const),
        ]}
      />
      <button class="primary" type="submit">
        Apply
      </button>
      <a href="/memories">clear</a>
    </form>
  );
}

function Choice(props: {
  name: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        {props.options.map(([value, text]) => (
          <option value={value} selected={(props.value ?? '') === value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
