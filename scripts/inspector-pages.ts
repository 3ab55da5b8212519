/**
 * Every page of the inspector, by name, on the demo database (inspector-demo.ts): the one list
 * the screenshots (inspector-screenshots.ts) and the browser layout tests walk.
 */
import type { DemoIds } from './inspector-demo.js';

/** One page: its name (the screenshot's file is `inspector-<name>.png`) and its path. */
export interface InspectorPage {
  name: string;
  href: string;
}

/** The inspector's pages, with the demo's ids filled in. */
export function inspectorPages(ids: DemoIds): InspectorPage[] {
  return [
    { name: 'memories', href: '/memories' },
    { name: 'search', href: `/memories?q=${encodeURIComponent('where do invoices live')}` },
    { name: 'memory', href: `/memories/${ids.superseded}` },
    { name: 'sessions', href: '/sessions' },
    { name: 'session', href: `/sessions/${ids.sessionId}` },
    { name: 'receipt', href: `/receipts?session=${ids.sessionId}&turn=1` },
    { name: 'working-set', href: '/working-set' },
    { name: 'notes', href: '/notes' },
    { name: 'activity', href: '/activity' },
    { name: 'solutions', href: `/solutions?goal=${encodeURIComponent('make the invoice export faster')}` },
    { name: 'graph', href: '/graph' },
    { name: 'entity', href: '/graph/entity?name=Caroline' },
    { name: 'stats', href: '/stats' },
  ];
}
