import { asc, desc, eq, sql } from 'drizzle-orm';
import type { CatalogueItem, CreateCatalogueItemBody, UpdateCatalogueItemBody } from '#shared/schemas/catalogue.js';
import { isUuid } from '#shared/schemas/common.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { catalogueItems, type CatalogueItemRow } from './catalogue.tables.js';

/** The catalogue's items: what users and guests see, and what staff keep (each change audited in its transaction). */

export function toItemDto(row: CatalogueItemRow): CatalogueItem {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    stock: row.stock,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of an item. */
function itemAuditView(row: CatalogueItemRow) {
  return { name: row.name, description: row.description, priceCents: row.priceCents, stock: row.stock, active: row.active };
}

/** The staff member of a change, as the audit log names them. */
export async function actor(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const user = await findUserById(db, userId);
  return { id: userId, username: user?.username ?? 'unknown' };
}

/** What users and guests see: active items, sold-out ones included (they show as sold out). */
export async function listActiveItems(db: Db): Promise<CatalogueItem[]> {
  const rows = await db
    .select()
    .from(catalogueItems)
    .where(eq(catalogueItems.active, true))
    .orderBy(asc(catalogueItems.name), asc(catalogueItems.id));
  return rows.map(toItemDto);
}

/** Staff: every item, hidden ones too. */
export async function listAllItems(db: Db): Promise<CatalogueItem[]> {
  const rows = await db
    .select()
    .from(catalogueItems)
    .orderBy(desc(catalogueItems.active), asc(catalogueItems.name), asc(catalogueItems.id));
  return rows.map(toItemDto);
}

export async function createItem(db: Db, staffId: string, body: CreateCatalogueItemBody): Promise<CatalogueItem> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(catalogueItems)
      .values({
        name: body.name,
        description: body.description,
        priceCents: body.priceCents,
        stock: body.stock,
        active: body.active ?? true,
      })
      .returning();
    await recordAudit(tx, {
      actor: await actor(tx, staffId),
      action: 'catalogue.item_created',
      targetType: 'catalogue_item',
      targetId: row!.id,
      after: itemAuditView(row!),
    });
    return toItemDto(row!);
  });
}

export async function updateItem(db: Db, staffId: string, id: string, body: UpdateCatalogueItemBody): Promise<CatalogueItem> {
  if (!isUuid(id)) throw notFound('Item not found');
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(catalogueItems).where(eq(catalogueItems.id, id)).for('update');
    if (!before) throw notFound('Item not found');
    const [after] = await tx
      .update(catalogueItems)
      .set({ ...body, updatedAt: sql`now()` })
      .where(eq(catalogueItems.id, id))
      .returning();
    const action =
      body.active === false && before.active
        ? 'catalogue.item_hidden'
        : body.active === true && !before.active
          ? 'catalogue.item_shown'
          : 'catalogue.item_updated';
    await recordAudit(tx, {
      actor: await actor(tx, staffId),
      action,
      targetType: 'catalogue_item',
      targetId: id,
      before: itemAuditView(before),
      after: itemAuditView(after!),
    });
    return toItemDto(after!);
  });
}
