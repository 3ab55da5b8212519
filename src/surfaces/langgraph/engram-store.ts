/**
 * `EngramStore`: LangGraph.js's long-term memory (`BaseStore`) kept by Engram —
 * `graph.compile({ store: new EngramStore({ engram }) })`, reached from nodes as `config.store`.
 * Namespaces are Engram scopes, items keyed memories whose `data` is the item's value; a search
 * with a query is Engram's search, without one a listing. Every call comes through `batch`, as
 * LangGraph's own wrapper sends it; operations run in order, a run of puts in one transaction.
 */
import { BaseStore, type Item, type Operation, type OperationResults, type SearchItem } from '@langchain/langgraph-checkpoint';

import { KINDS } from '../../entries/model.js';
import { type Engram, InvalidInputError, type Kind } from '../../index.js';
import { type FieldPath, parseFieldPaths, WHOLE_VALUE } from './item-text.js';
import { itemOf } from './items.js';
import { listNamespaces } from './list-namespaces.js';
import { parseOperation, type StoreOperation } from './operations.js';
import { type ItemSearch, searchItems } from './search-items.js';
import { searchMayGoOn, storeFailure } from './store-failures.js';
import { deleteItem, type PreparedPut, putItems, type PutSettings } from './write-items.js';

/** What `new EngramStore(...)` takes. */
export interface EngramStoreOptions {
  /** The engine from `openEngram()`; the store does not close it. */
  engram: Engram;
  /**
   * What Engram indexes for an item when `put` names no `index`: field paths into the value, in
   * LangGraph's syntax (`"title"`, `"chapters[*].content"`, `"$"` for the whole value).
   * @default { fields: ["$"] } — every string in the value
   */
  index?: { fields?: readonly string[] };
  /** The kind of the memories items are kept as. @default "note" */
  kind?: Kind;
  /**
   * What a failing search does: `"log"` logs one line and finds nothing, so the graph goes on
   * without recall; `"throw"` throws. Other operations always throw. @default "log"
   */
  searchFailures?: 'log' | 'throw';
  /** Where a failed search is reported. @default standard error */
  log?: (line: string) => void;
}

/** A LangGraph store whose items are Engram memories. */
export class EngramStore extends BaseStore {
  /** The engine the items live in. */
  readonly engram: Engram;
  private readonly settings: PutSettings;
  private readonly searchFailures: 'log' | 'throw';
  private readonly log: (line: string) => void;

  constructor(options: EngramStoreOptions) {
    super();
    const { engram, index, kind = 'note', searchFailures = 'log', log } = options ?? ({} as Partial<EngramStoreOptions>);
    if (!engram) throw new InvalidInputError('EngramStore needs { engram }: the engine from openEngram()');
    if (!(KINDS as readonly string[]).includes(kind)) {
      throw new InvalidInputError(`unknown kind ${String(kind)}: choose from ${KINDS.join(', ')}`);
    }
    if (searchFailures !== 'log' && searchFailures !== 'throw') {
      throw new InvalidInputError(`searchFailures must be "log" or "throw" (got ${String(searchFailures)})`);
    }
    const fields: readonly FieldPath[] =
      index?.fields === undefined ? WHOLE_VALUE : parseFieldPaths(index.fields, 'EngramStore index.fields');
    this.engram = engram;
    this.settings = { fields, kind };
    this.searchFailures = searchFailures;
    this.log = log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /**
   * Runs the operations in order and returns their results in the same order. Every operation is
   * checked first: a bad one refuses the batch before anything is written.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    if (!Array.isArray(operations)) throw new InvalidInputError('batch takes a list of operations');
    const parsed = operations.map((operation) => parseOperation(operation, this.settings));
    const results: unknown[] = [];
    let puts: { put: PreparedPut; where: string }[] = [];
    const writePuts = async () => {
      if (puts.length === 0) return;
      const run = puts;
      puts = [];
      await this.attempt(run.length === 1 ? (run[0]?.where ?? 'put') : `put ${run.length} items`, () =>
        putItems(
          this.engram,
          run.map(({ put }) => put),
        ),
      );
    };
    for (const operation of parsed) {
      if (operation.type === 'put') {
        puts.push(operation);
        results.push(undefined);
        continue;
      }
      await writePuts();
      results.push(await this.run(operation));
    }
    await writePuts();
    return results as OperationResults<Op>;
  }

  private async run(
    operation: Exclude<StoreOperation, { type: 'put' }>,
  ): Promise<Item | SearchItem[] | string[][] | null | undefined> {
    switch (operation.type) {
      case 'get':
        return this.attempt(operation.where, async () => {
          const { key, scope } = operation;
          const memory = key === null ? null : await this.engram.getByKey(key, scope);
          return memory === null ? null : itemOf(memory);
        });
      case 'delete':
        return this.attempt(operation.where, async () => {
          if (operation.key !== null) await deleteItem(this.engram, operation.scope, operation.key);
          return undefined;
        });
      case 'search':
        return this.searchOrGoOn(operation.search, operation.where);
      case 'list':
        return this.attempt(operation.where, () => listNamespaces(this.engram, operation.listing));
    }
  }

  private async searchOrGoOn(search: ItemSearch, where: string): Promise<SearchItem[]> {
    try {
      return await searchItems(this.engram, search);
    } catch (error) {
      if (this.searchFailures === 'throw' || !searchMayGoOn(error)) throw storeFailure(error, where);
      // Recall is an addition: the graph's turn goes on without it.
      this.log(
        `Engram store: ${where} failed, going on without its results: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    }
  }

  private async attempt<T>(where: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw storeFailure(error, where);
    }
  }
}
