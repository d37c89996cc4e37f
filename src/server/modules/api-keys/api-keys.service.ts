import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, type ApiKey, type CreateApiKeyBody } from '#shared/schemas/charges.js';
import { isUuid } from '#shared/schemas/common.js';
import type { Db } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { apiKeys, type ApiKeyRow } from './api-keys.tables.js';

/** Characters of the random part kept visible in `prefix`. */
const VISIBLE_CHARS = 8;
/** last_used_at is written at most this often per key: a busy key costs no write per call. */
const LAST_USED_RESOLUTION_SECONDS = 60;

/** SHA-256, hex: a key has 256 bits of randomness, so a slow hash would add nothing (docs/decisions/0165). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function toApiKeyDto(row: ApiKeyRow): ApiKey {
  return {
    _id: row.id,
    name: row.name,
    prefix: row.prefix,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

export interface Actor {
  id: string;
  username: string;
}

export class ApiKeyService {
  constructor(private readonly db: Db) {}

  /** Makes a key; the answer is the only place the key itself ever appears. */
  async create(actor: Actor, input: CreateApiKeyBody): Promise<{ apiKey: ApiKey; key: string }> {
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, API_KEY_PREFIX.length + VISIBLE_CHARS);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiKeys)
        .values({
          name: input.name,
          prefix,
          keyHash: hashApiKey(key),
          rateLimitPerMinute: input.rateLimitPerMinute ?? 120,
          createdBy: actor.id,
        })
        .returning();
      await recordAudit(tx, {
        actor,
        action: 'api-key.created',
        targetType: 'api-key',
        targetId: row!.id,
        after: { name: row!.name, prefix, rateLimitPerMinute: row!.rateLimitPerMinute },
      });
      return { apiKey: toApiKeyDto(row!), key };
    });
  }

  async list(): Promise<ApiKey[]> {
    const rows = await this.db.select().from(apiKeys).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).limit(500);
    return rows.map(toApiKeyDto);
  }

  /** Revoking twice answers the key as it is (revoked once, at the first time). */
  async revoke(actor: Actor, id: string): Promise<ApiKey> {
    if (!isUuid(id)) throw notFound('API key not found');
    return this.db.transaction(async (tx) => {
      const [revoked] = await tx
        .update(apiKeys)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning();
      if (revoked) {
        await recordAudit(tx, {
          actor,
          action: 'api-key.revoked',
          targetType: 'api-key',
          targetId: id,
          before: { name: revoked.name, prefix: revoked.prefix, revokedAt: null },
          after: { revokedAt: revoked.revokedAt?.toISOString() },
        });
        return toApiKeyDto(revoked);
      }
      const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
      if (!row) throw notFound('API key not found');
      return toApiKeyDto(row);
    });
  }

  /** The live (not revoked) key with this text, or null. One indexed read by hash. */
  async findActive(key: string): Promise<ApiKeyRow | null> {
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)))
      .limit(1);
    return row ?? null;
  }

  /** Cheap: writes only when the stored time is older than a minute (so at most once a minute per key). */
  async touch(row: ApiKeyRow): Promise<void> {
    if (row.lastUsedAt && Date.now() - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_SECONDS * 1000) return;
    await this.db.execute(sql`
      UPDATE api_keys SET last_used_at = now()
      WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_RESOLUTION_SECONDS}))`);
  }
}
