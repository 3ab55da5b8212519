/**
 * Every stored value the pages show is escaped: the pages rendered directly (no server) with
 * hostile memories, receipts, graph names and counts. The pages carry no element of their own
 * that could run code, so any `<script` or `<img` in the output would have come from data.
 */
import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import type { Receipt } from '../../index.js';
import { CountBars } from './components/charts.js';
import { MemoryTable } from './components/memory-table.js';
import { Neighbourhood } from './components/neighbourhood.js';
import { ReceiptScreen } from './components/receipt-screen.js';
import type { PageChrome } from './layout.js';
import { MemoryPage } from './pages/memory-page.js';

const SCRIPT = '<script>alert(1)</script>';
const IMAGE = '"><img src=x onerror=alert(2)>';
const chrome: PageChrome = { tenant: IMAGE, csrfToken: `token${IMAGE}`, signedIn: true, path: '/memories' };

function render(element: unknown): string {
  return String(element);
}

function expectNoMarkupFromData(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).toContain('&lt;');
}

const hostile = makeMemory({
  id: `01HOSTILE${SCRIPT}`,
  text: `${SCRIPT} ${IMAGE}`,
  scope: IMAGE,
  key: SCRIPT,
  abstract: IMAGE,
  context: SCRIPT,
  sessionId: IMAGE,
  tags: [SCRIPT, IMAGE],
  data: { [SCRIPT]: IMAGE },
  supersededBy: IMAGE,
});

describe('escaping', () => {
  it('escapes every field of a memory’s page, its forms and its links', () => {
    const html = render(
      MemoryPage({
        view: {
          memory: hostile,
          newerVersions: [],
          injections: [{ sessionId: SCRIPT, turn: 3, lane: 'hot', receiptId: IMAGE, at: '2025-01-15T09:00:00.000Z' }],
          injectionsOffset: 0,
          nextInjections: null,
          mentions: [{ name: IMAGE, entityType: SCRIPT, observations: [] }],
        },
        chrome,
        notice: null,
      }),
    );
    expectNoMarkupFromData(html);
    // Attribute values are quoted and escaped too: the CSRF token and the tags input.
    expect(html).toContain('value="token&quot;&gt;&lt;img');
    // Links and form actions carry encoded values only.
    expect(html).toContain(`action="/memories/${encodeURIComponent(hostile.id)}/edit"`);
    expect(html).toContain(`href="/memories/${encodeURIComponent(IMAGE)}"`);
  });

  it('escapes the memories table and a search hit’s graph path', () => {
    const html = render(
      MemoryTable({
        rows: [
          {
            memory: hostile,
            hit: {
              memory: hostile,
              score: 1,
              relevance: 1,
              raw: 1,
              storeShift: 0,
              signals: { bm25: 1, coverage: 1, cosine: 1, keyword: 1, graph: 1, fused: null },
              factors: { recency: 1, scope: 1, exact: 1, cooldown: 1 },
              via: `${IMAGE} → ${SCRIPT}`,
            },
          },
        ],
        search: true,
      }),
    );
    expectNoMarkupFromData(html);
  });

  it('escapes a receipt: query, previews, reasons and graph paths', () => {
    const entry = {
      id: IMAGE,
      kind: 'fact' as const,
      tier: 'must' as const,
      lane: 'hot' as const,
      preview: SCRIPT,
      factors: null,
      diversityPenalty: 0,
      via: IMAGE,
    };
    const receipt: Receipt = {
      id: SCRIPT,
      tenant: 'default',
      sessionId: IMAGE,
      turn: 1,
      path: 'active',
      createdAt: '2026-01-01T00:00:00.000Z',
      query: SCRIPT,
      selectionMode: 'tier_quota_v1',
      budget: { maxItems: 6, hotLane: 5, threshold: 0.6 },
      quota: { mustMax: 2, niceMin: 2, unknownMax: 1, wildcardUsed: 0, selected: { must: 1, nice: 0, unknown: 0 }, spilled: 0 },
      workingSet: { enabled: true, memoryId: IMAGE, itemIds: [] },
      chosen: [{ ...entry, outcome: 'quota' }],
      leftOut: [{ ...entry, outcome: 'below_threshold', lane: null }],
      suppressedByRepeat: [],
      pinnedByWorkingSet: [],
      excludedAsBackboneDuplicate: [],
      cooledDown: [],
      nearDuplicates: [],
      belowThreshold: 1,
      candidates: 2,
      whySummary: IMAGE,
      whyTheseIds: { [IMAGE]: SCRIPT },
      latencyMs: { embed: 1, search: 1, total: 2 },
    };
    expectNoMarkupFromData(render(ReceiptScreen({ receipt, linkTurn: true })));
  });

  it('escapes names in the pictures: the neighbourhood and the count bars', () => {
    const picture = render(
      Neighbourhood({
        entity: { name: SCRIPT, entityType: IMAGE, observations: [] },
        neighbours: [{ name: IMAGE, entity: null, links: [{ type: SCRIPT, outgoing: true }] }],
      }),
    );
    expectNoMarkupFromData(picture);
    expect(picture).toContain('<svg');
    expectNoMarkupFromData(
      render(CountBars({ counts: { [SCRIPT]: 3, [IMAGE]: 1 }, label: 'by scope', empty: 'Nothing to count.' })),
    );
  });
});
