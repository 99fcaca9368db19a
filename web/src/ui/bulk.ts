// A mass action's answer: done in the request (affected N) or queued as a bulk operation, which is
// followed here with a notification that shows its progress until it ends.
import { notifications } from '@mantine/notifications';
import { api, call, messageOf } from '../api';

export type MassResult = { affected: number | null; operation: { uuid: string } | null };

/** Tells the user how a mass action went; calls `onDone` once its records are changed. */
export async function followMassResult(result: MassResult, what: string, onDone: () => void): Promise<void> {
  if (!result.operation) {
    notifications.show({ color: 'green', message: `${what}: ${result.affected ?? 0} changed.` });
    onDone();
    return;
  }
  const id = `bulk-${result.operation.uuid}`;
  notifications.show({ id, loading: true, autoClose: false, message: `${what}: queued…` });
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      const op = await call(
        api.GET('/leads/api/bulk-operations/{uuid}', { params: { path: { uuid: result.operation.uuid } } }),
      );
      if (op.status === 'done' || op.status === 'failed') {
        notifications.update({
          id,
          loading: false,
          autoClose: 5000,
          color: op.status === 'done' ? 'green' : 'red',
          message:
            op.status === 'done'
              ? `${what}: ${op.affected ?? 0} changed.`
              : `${what} failed: ${op.error ?? ''}`,
        });
        onDone();
        return;
      }
      notifications.update({ id, message: `${what}: ${op.affected ?? 0} so far…` });
    } catch (error) {
      notifications.update({ id, loading: false, color: 'red', autoClose: 5000, message: messageOf(error) });
      return;
    }
  }
}
