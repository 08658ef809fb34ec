import fs from 'node:fs';
import path from 'node:path';
import { ProvisioningError } from './log';

// What we change in the pinned FerretDB before building it (DESIGN "Local infrastructure": the store must honour
// MongoDB's single-document atomicity and use indexes). Each edit names an exact anchor in the pinned source and
// fails the build loudly if the anchor is missing, so a version bump cannot silently drop a guarantee.
// The Go files added are in ./ferretdb-patch/; bump PATCH_LEVEL whenever anything here changes so cached
// builds are rebuilt.

export const PATCH_LEVEL = 'einvoice15';

interface Edit {
  file: string;
  anchor: string;
  /** Text placed right after the anchor (or instead of it with `replace`, or before it with `before`). */
  text: string;
  replace?: boolean;
  before?: boolean;
  /** How many times the anchor occurs (all are edited). */
  count?: number;
}

const paramsParsed = (getter: string, ret = 'lazyerrors.Error(err)') =>
  `params, err := common.${getter}(document, h.L)\n\tif err != nil {\n\t\treturn nil, ${ret}\n\t}\n`;

const EDITS: Edit[] = [
  // Single-document atomicity: every write command holds a lock from its read to its write.
  { file: 'internal/handler/msg_insert.go', anchor: paramsParsed('GetInsertParams'), text: '\n\tdefer einvoiceLockWrite(params.DB, params.Collection, nil)()\n' },
  { file: 'internal/handler/msg_update.go', anchor: paramsParsed('GetUpdateParams'), text: '\n\tdefer einvoiceLockWrite(params.DB, params.Collection, einvoiceUpdateFilters(params.Updates))()\n' },
  { file: 'internal/handler/msg_delete.go', anchor: paramsParsed('GetDeleteParams'), text: '\n\tdefer einvoiceLockWrite(params.DB, params.Collection, einvoiceDeleteFilters(params.Deletes))()\n' },
  {
    file: 'internal/handler/msg_findandmodify.go',
    anchor: paramsParsed('GetFindAndModifyParams', 'err'),
    text: '\n\tdefer einvoiceLockWrite(params.DB, params.Collection, []*types.Document{params.Query})()\n',
  },
  // An update command of many statements (bulkWrite) kept every statement's read query, and so one pooled
  // PostgreSQL connection each, open until the command ended (a defer inside the loop): 50 statements took the
  // whole pool and the command waited for itself forever. Each statement's query now closes when it is done.
  { file: 'internal/handler/msg_update.go', anchor: '\t\tcloser := iterator.NewMultiCloser()\n\t\tdefer closer.Close()\n', text: '\t\tcloser := iterator.NewMultiCloser()\n', replace: true },
  {
    file: 'internal/handler/msg_update.go',
    anchor: '\t\tresult, err := common.UpdateDocument(ctx, c, "update", iter, &u)\n',
    text: '\t\tcloser.Close()\n',
  },
  // PostgreSQL: equality filters answered from the _id index and a GIN index instead of a full scan.
  {
    file: 'internal/backends/postgresql/query.go',
    anchor: '\t\tif strings.HasPrefix(rootKey, "$") {\n\t\t\tcontinue\n\t\t}\n',
    text: '\n\t\tif f, a, ok := einvoiceIndexedEqual(p, rootKey, rootVal); ok {\n\t\t\tfilters = append(filters, f)\n\t\t\targs = append(args, a...)\n\n\t\t\tcontinue\n\t\t}\n',
  },
  {
    file: 'internal/backends/postgresql/metadata/registry.go',
    anchor: "\tq += fmt.Sprintf(`%s jsonb)`, DefaultColumn)\n\n\tif _, err = p.Exec(ctx, q); err != nil {\n\t\treturn false, lazyerrors.Error(err)\n\t}\n",
    text:
      '\n\tq = fmt.Sprintf(`CREATE INDEX ON %s USING gin (%s jsonb_path_ops)`, pgx.Identifier{dbName, tableName}.Sanitize(), DefaultColumn)\n' +
      '\tif _, err = p.Exec(ctx, q); err != nil {\n\t\treturn false, lazyerrors.Error(err)\n\t}\n',
  },
  // PostgreSQL: a find with a limit whose filter and sort translate exactly is answered with WHERE, ORDER BY and
  // LIMIT that (rank, key) btree indexes serve, created beside every index a client creates (ordered_*.go.txt).
  { file: 'internal/handler/msg_find.go', anchor: '\tqueryRes, err := coll.Query(ctx, qp)\n', text: '\tctx = backends.EinvoiceWithOrder(ctx, params.Sort, params.Limit, params.Skip)\n\tqueryRes, err := coll.Query(ctx, qp)\n', replace: true },
  {
    file: 'internal/backends/postgresql/collection.go',
    anchor: '\twhere, args, err = prepareWhereClause(&placeholder, params.Filter)\n',
    text: '\twhere, args, err = einvoicePrepareWhere(ctx, p, c.dbName, meta, &placeholder, params)\n',
    replace: true,
  },
  // Every createIndexes (mongoose's at each start) creates the missing companions of the collection's indexes: the
  // handler drops a request for an index that already exists before it gets here, so a database whose indexes
  // predate their companions (made by an earlier build) gets them on its next start.
  {
    file: 'internal/backends/postgresql/metadata/registry.go',
    anchor: '\tcreated := make([]string, 0, len(indexes))\n',
    text:
      '\tfor _, existing := range c.Indexes {\n' +
      '\t\tif err = einvoiceCreateCompanion(ctx, p, dbName, c.TableName, existing); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\t}\n\n',
    before: true,
  },
  {
    file: 'internal/backends/postgresql/metadata/registry.go',
    anchor: '\t\tcreated = append(created, index.Name)\n',
    text:
      '\t\tif err = einvoiceCreateCompanion(ctx, p, dbName, c.TableName, index); err != nil {\n' +
      '\t\t\t_ = r.indexesDrop(ctx, p, dbName, collectionName, created)\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\n',
    before: true,
  },
  {
    file: 'internal/backends/postgresql/metadata/registry.go',
    anchor: '\t\tq := fmt.Sprintf("DROP INDEX %s", pgx.Identifier{dbName, c.Indexes[i].PgIndex}.Sanitize())\n',
    text: '\t\tif err := einvoiceDropCompanion(ctx, p, dbName, c.Indexes[i].PgIndex); err != nil {\n\t\t\treturn lazyerrors.Error(err)\n\t\t}\n\n',
    before: true,
  },
  // SQLite: push down _id equality also when the filter names other fields ({_id, status} conditional updates).
  { file: 'internal/backends/sqlite/collection.go', anchor: 'if params.Filter.Len() == 1 {', text: 'if params.Filter.Len() > 0 && params.Filter.Has("_id") {', replace: true, count: 2 },
];

const ADDED: Array<{ from: string; to: string }> = [
  { from: 'write_locks.go.txt', to: 'internal/handler/einvoice_write_locks.go' },
  { from: 'indexed_equal.go.txt', to: 'internal/backends/postgresql/einvoice_indexed_equal.go' },
  { from: 'ordered_hint.go.txt', to: 'internal/backends/einvoice_order.go' },
  { from: 'ordered_keys.go.txt', to: 'internal/backends/postgresql/metadata/einvoice_ordered_keys.go' },
  { from: 'ordered_query.go.txt', to: 'internal/backends/postgresql/einvoice_ordered.go' },
];

/** Applies our changes to a writable copy of the FerretDB module source. */
export function patchFerretSource(src: string): void {
  for (const edit of EDITS) {
    const file = path.join(src, edit.file);
    const text = fs.readFileSync(file, 'utf8');
    const found = text.split(edit.anchor).length - 1;
    if (found !== (edit.count ?? 1)) {
      throw new ProvisioningError('FerretDB patch', `${edit.file}: expected ${edit.count ?? 1} anchor(s), found ${found}`, 'the pinned FerretDB source changed; update scripts/infra/ferretdb-patch.ts');
    }
    fs.writeFileSync(file, text.split(edit.anchor).join(edit.replace ? edit.text : edit.before ? edit.text + edit.anchor : edit.anchor + edit.text));
  }
  for (const { from, to } of ADDED) fs.copyFileSync(path.join(__dirname, 'ferretdb-patch', from), path.join(src, to));
}
