/**
 * One entity's neighbourhood as a picture: the entity in the middle, the entities one relation
 * away on a circle around it, each edge labelled with its relation. Neighbours link to their
 * own pages; beyond `MAX_DRAWN_NEIGHBOURS` they are listed under the picture, not drawn.
 */
import type { GraphEntity } from '../../../entries/tools.js';
import { oneLine } from '../format.js';
import { entityHref } from '../links.js';
import { describeLinks, MAX_DRAWN_NEIGHBOURS, type Neighbour } from '../loaders/graph.js';

const COLOURS: Readonly<Record<string, string>> = {
  person: '#2459c2',
  place: '#1f7a4d',
  organization: '#8a4fc2',
  thing: '#a8431c',
  date: '#7a6a1f',
};

function colourOf(type: string | undefined): string {
  return (type && COLOURS[type]) ?? '#5f6b7a';
}

/** The entity and its neighbours as an inline SVG picture. */
export function Neighbourhood(props: { entity: GraphEntity; neighbours: readonly Neighbour[] }) {
  const drawn = props.neighbours.slice(0, MAX_DRAWN_NEIGHBOURS);
  const width = 720;
  const height = 440;
  const cx = width / 2;
  const cy = height / 2;
  const radius = drawn.length <= 6 ? 140 : 175;
  const at = (i: number) => {
    const angle = (2 * Math.PI * i) / Math.max(1, drawn.length) - Math.PI / 2;
    return { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) };
  };
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      class="picture"
      role="img"
      aria-label={`the neighbourhood of ${props.entity.name}`}
    >
      {drawn.map((neighbour, i) => {
        const p = at(i);
        return (
          <g>
            <line x1={cx} y1={cy} x2={p.x} y2={p.y} stroke="#c5ccd6" stroke-width="1.5" />
            <text x={(cx + p.x) / 2} y={(cy + p.y) / 2 - 4} font-size="10.5" text-anchor="middle" fill="#5f6b7a">
              {oneLine(describeLinks(neighbour), 28)}
            </text>
          </g>
        );
      })}
      {drawn.map((neighbour, i) => {
        const p = at(i);
        return (
          <a href={entityHref(neighbour.name)}>
            <title>{`${neighbour.name} (${neighbour.entity?.entityType ?? 'unknown'})`}</title>
            <circle cx={p.x} cy={p.y} r="9" fill={colourOf(neighbour.entity?.entityType)} />
            <text x={p.x} y={p.y + 24} font-size="12" text-anchor="middle" fill="#1d232b">
              {oneLine(neighbour.name, 24)}
            </text>
          </a>
        );
      })}
      <circle cx={cx} cy={cy} r="16" fill={colourOf(props.entity.entityType)} />
      <text x={cx} y={cy + 34} font-size="14" font-weight="600" text-anchor="middle" fill="#1d232b">
        {oneLine(props.entity.name, 32)}
      </text>
    </svg>
  );
}
