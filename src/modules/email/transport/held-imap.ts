import type { ImapFlow } from 'imapflow';

/** The path of the mailbox's Sent folder: the one marked \Sent (RFC 6154), else `Sent`. */
export async function sentFolderOf(client: ImapFlow): Promise<string> {
  const folders = await client.list();
  return folders.find((f) => f.specialUse === '\\Sent')?.path ?? 'Sent';
}
