import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { CredentialAudit } from '../db/models';

// The audit trail of credentials (who rotated or revoked what, when). Never given a secret: its inputs are ids.

export interface AuditActor {
  kind: 'cli' | 'admin-api';
  /** The OS user running the CLI, or the admin API's request id. */
  name: string;
  address?: string | null;
}

export interface AuditEntry {
  action: 'rotate_secret' | 'rotate_webhook_secret' | 'revoke' | 'reissue';
  subjectType: 'partner' | 'sme' | 'tenant';
  subjectId: string;
  partnerId?: string | null;
  previousSecretValidUntil?: Date | null;
}

/** The CLI's actor: the OS account that ran it (userInfo throws when the uid has no passwd entry, e.g. in containers). */
export function cliActor(): AuditActor {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    name = process.env.USER ?? process.env.LOGNAME ?? `uid:${process.getuid?.() ?? 'unknown'}`;
  }
  return { kind: 'cli', name };
}

export async function recordCredentialChange(actor: AuditActor, entry: AuditEntry, at: Date): Promise<void> {
  await CredentialAudit.create({
    _id: randomUUID(),
    at,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    partnerId: entry.partnerId ?? null,
    actor: { kind: actor.kind, name: actor.name, address: actor.address ?? null },
    previousSecretValidUntil: entry.previousSecretValidUntil ?? null,
  });
}
