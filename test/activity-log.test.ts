/** The activity log on SQLite: every write of the engine, logged once, on a real database file. */
import { describe } from 'vitest';

import { activityLogSuite } from './activity-log-suite.js';
import { openTestEngram } from './tools-helpers.js';

describe('the activity log (SQLite)', () => {
  activityLogSuite(() => openTestEngram());
});
