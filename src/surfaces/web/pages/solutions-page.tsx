/** Solved tasks (seed 004), and the ones most like a goal. */
import type { SolutionMatch } from '../../../entries/tools.js';
import type { Memory } from '../../../index.js';
import { EmptyState } from '../components/empty-state.js';
import { Pager } from '../components/pager.js';
import { ScrollBox } from '../components/scroll-box.js';
import { formatScore, formatTime } from '../format.js';
import { Layout, type PageChrome } from '../layout.js';
import { memoryHref } from '../links.js';
import { solutionField, SOLUTIONS_PAGE, type SolutionsView } from '../loaders/solutions.js';

/** Recorded solutions a page at a time, and for a goal the most similar ones. */
export function SolutionsPage(props: { view: SolutionsView; chrome: PageChrome }) {
  const { view } = props;
  return (
    <Layout title="Solutions" chrome={props.chrome}>
      <h1>Solutions</h1>
      <form class="filters" method="get" action="/solutions">
        <label>
          A new goal
          <input type="search" name="goal" value={view.goal ?? ''} placeholder="find similar solved tasks" />
        </label>
        <button class="primary" type="submit">
          Recall
        </button>
      </form>
      {view.matches && <Matches goal={view.goal ?? ''} matches={view.matches} />}
      <Recorded solutions={view.solutions} />
      <Pager
        path="/solutions"
        query={{ goal: view.goal }}
        offset={view.offset}
        previousOffset={view.offset > 0 ? Math.max(0, view.offset - SOLUTIONS_PAGE) : null}
        nextOffset={view.nextOffset}
        shown={view.solutions.length}
      />
    </Layout>
  );
}

/** The recorded solutions most like a goal, with their similarity. */
function Matches(props: { goal: string; matches: readonly SolutionMatch[] }) {
  return (
    <>
      <h2>Most like “{props.goal}”</h2>
      {props.matches.length === 0 ? (
        <EmptyState>
          No recorded solution is similar enough to this goal: a solution is listed here once its similarity reaches the threshold
          ([solutions] threshold).
        </EmptyState>
      ) : (
        <ScrollBox>
          <table>
            <thead>
              <tr>
                <th class="num">Similarity</th>
                <th>Goal</th>
                <th>Approach</th>
                <th>Outcome</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {props.matches.map((match) => (
                <tr>
                  <td class="num">
                    {formatScore(match.similarity)} <span class="muted">{match.method}</span>
                  </td>
                  <td>
                    <a href={memoryHref(match.solution.id)}>{match.solution.goal}</a>
                  </td>
                  <td class="text">{match.solution.approach}</td>
                  <td class="text">{match.solution.outcome}</td>
                  <td>
                    {match.solution.status} ({match.solution.confidence}%)
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </>
  );
}

/** One page of the recorded solutions, newest first. */
function Recorded(props: { solutions: readonly Memory[] }) {
  return (
    <>
      <h2>Recorded</h2>
      {props.solutions.length === 0 ? (
        <EmptyState>
          No solution recorded yet. Record a solved task with store_solution, engram solution add or POST /v1/solutions.
        </EmptyState>
      ) : (
        <ScrollBox>
          <table>
            <thead>
              <tr>
                <th>Goal</th>
                <th>Approach</th>
                <th>Outcome</th>
                <th>Status</th>
                <th>Recorded</th>
              </tr>
            </thead>
            <tbody>
              {props.solutions.map((memory) => (
                <tr>
                  <td>
                    <a href={memoryHref(memory.id)}>{solutionField(memory, 'goal')}</a>
                  </td>
                  <td class="text">{solutionField(memory, 'approach')}</td>
                  <td class="text">{solutionField(memory, 'outcome')}</td>
                  <td>
                    {solutionField(memory, 'status')} ({solutionField(memory, 'confidence')}%)
                  </td>
                  <td>{formatTime(memory.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
    </>
  );
}
