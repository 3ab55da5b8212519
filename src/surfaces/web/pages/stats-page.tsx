/** Counts by kind, tier and scope, the index, the file and the embedder, and recall activity per day. */
import type { EngramStats } from '../../../entries/model.js';
import { CountBars, RecallChart } from '../components/charts.js';
import { formatBytes, formatCount } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { CHART_DAYS, type StatsView } from '../loaders/stats.js';

const NOTHING_TO_COUNT = 'No live memories to count yet. Add one with engram add "…" or POST /v1/memories.';

/** The tenant's statistics and recall activity. */
export function StatsPage(props: { view: StatsView; chrome: PageChrome }) {
  const { stats, showFile, days, complete } = props.view;
  return (
    <Layout title="Stats" chrome={props.chrome}>
      <h1>Stats</h1>
      <StatCards stats={stats} showFile={showFile} />
      <h2>Recall activity, last {CHART_DAYS} days (UTC)</h2>
      <p class="muted">
        Dark: recall decisions; light: the memories they injected.
        {complete ? '' : ' Only the latest receipts were read: older days may show less.'}
      </p>
      <RecallChart days={days} />
      <div class="grid">
        <section>
          <h2>By kind</h2>
          <CountBars counts={stats.byKind} label="memories by kind" empty={NOTHING_TO_COUNT} />
        </section>
        <section>
          <h2>By tier</h2>
          <CountBars counts={stats.byTier} label="memories by tier" empty={NOTHING_TO_COUNT} />
        </section>
        <section>
          <h2>By scope</h2>
          <CountBars counts={stats.byScope} label="memories by scope" empty={NOTHING_TO_COUNT} />
        </section>
      </div>
    </Layout>
  );
}

/** The counts, the index and embedder, and the database file (only when the server has one tenant). */
function StatCards(props: { stats: EngramStats; showFile: boolean }) {
  const { stats, showFile } = props;
  return (
    <div class="grid">
      <section class="card">
        <h3>Memories</h3>
        <dl class="kv">
          <dt>live</dt>
          <dd>{formatCount(stats.live)}</dd>
          <dt>archived</dt>
          <dd>{formatCount(stats.archived)}</dd>
          <dt>superseded</dt>
          <dd>{formatCount(stats.superseded)}</dd>
          <dt>all</dt>
          <dd>{formatCount(stats.memories)}</dd>
          <dt>internal records</dt>
          <dd>
            {formatCount(stats.internal.live)} live (working sets, handoff notes, scratchpads),{' '}
            {stats.internal.counted ? (
              <>
                counted here · <a href="/stats">leave them out</a>
              </>
            ) : (
              <>
                not counted here · <a href="/stats?internal=true">count them</a>
              </>
            )}
          </dd>
        </dl>
      </section>
      <section class="card">
        <h3>Index and embedder</h3>
        <dl class="kv">
          <dt>embedder</dt>
          <dd>{stats.embedder}</dd>
          <dt>vectors</dt>
          <dd>{formatCount(stats.vectors)}</dd>
          <dt>index</dt>
          <dd>{stats.index ? `${stats.index.model}, ${stats.index.dimensions} dimensions` : 'none'}</dd>
          <dt>schema</dt>
          <dd>version {stats.schemaVersion}</dd>
        </dl>
      </section>
      <section class="card">
        <h3>Database</h3>
        <dl class="kv">
          {showFile ? (
            <>
              <dt>file</dt>
              <dd class="text">{stats.path ?? '(not a file)'}</dd>
              <dt>size</dt>
              <dd>{stats.sizeBytes === null ? '—' : formatBytes(stats.sizeBytes)}</dd>
              <dt>embedding cache</dt>
              <dd title="a memory's own vector answers for its text; the cache keeps only texts no memory holds">
                {formatCount(stats.cachedEmbeddings)} other texts
              </dd>
            </>
          ) : (
            <>
              <dt>file</dt>
              <dd class="muted">shared by several tenants: not shown</dd>
            </>
          )}
          <dt>graph</dt>
          <dd>
            {formatCount(stats.graph.entities)} entities, {formatCount(stats.graph.relations)} relations,{' '}
            {formatCount(stats.graph.mentions)} mentions
          </dd>
        </dl>
      </section>
    </div>
  );
}
