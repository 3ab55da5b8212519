/**
 * The inspector's changes to a memory: the edit form read into a patch for `engram.update`
 * (as `PATCH /v1/memories/:id`), forgetting (`engram.forget`, as `DELETE /v1/memories/:id`)
 * and restoring (`engram.restore`, as `POST /v1/memories/:id/restore`).
 */
import { z } from 'zod';

import { TIERS } from '../../../entries/model.js';
import { type Engram, InvalidInputError, type Memory, type MemoryPatch } from '../../../index.js';
import type { FormFields } from '../read-form.js';
import { requireMemory } from './memory-detail.js';

const EditForm = z.object({
  tier: z.enum(TIERS, { error: `tier must be one of: ${TIERS.join(', ')}` }),
  tags: z.string().max(20_000, 'tags are too long').optional(),
});

/** A memory's tags as the edit form shows them: comma-separated. */
export function tagsText(tags: readonly string[]): string {
  return tags.join(', ');
}

/**
 * The edit form as a patch of `current`: tier, pinned, hard rule and tags (comma-separated). A
 * missing checkbox means false. Tags sent back as the form showed them (or not sent) are left
 * out of the patch, so a stored tag that itself holds a comma is not split by saving another field.
 */
export function readEditForm(form: FormFields, current: Memory): MemoryPatch {
  const parsed = EditForm.safeParse({ tier: form.get('tier'), tags: form.get('tags') });
  if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((issue) => issue.message).join('; '));
  const { tier, tags } = parsed.data;
  const patch: MemoryPatch = { tier, pinned: form.get('pinned') === 'on', hardRule: form.get('hardRule') === 'on' };
  if (tags === undefined || tags.trim() === tagsText(current.tags)) return patch;
  return {
    ...patch,
    tags: tags
      .split(/[,\n]/)
      .map((tag) => tag.trim())
      .filter(Boolean),
  };
}

/** Applies the edit form to the memory (`engram.update`, as `PATCH /v1/memories/:id`). */
export async function editMemory(engram: Engram, id: string, form: FormFields): Promise<Memory> {
  const memory = await requireMemory(engram, id);
  return engram.update(memory.id, readEditForm(form, memory));
}

/** Archives the memory (it stays in the database, out of search and recall). */
export async function forgetMemory(engram: Engram, id: string): Promise<void> {
  const memory = await requireMemory(engram, id);
  await engram.forget(memory.id);
}

/** Brings an archived memory back in place; refused when a newer live memory holds its key. */
export async function restoreMemory(engram: Engram, id: string): Promise<void> {
  const memory = await requireMemory(engram, id);
  await engram.restore(memory.id);
}
