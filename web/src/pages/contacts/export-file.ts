// A queued CSV export followed until its file is ready, then downloaded by the browser.
import { notifications } from '@mantine/notifications';
import { api, call, messageOf } from '../../api';

export async function followExport(uuid: string): Promise<void> {
  const id = `export-${uuid}`;
  notifications.show({ id, loading: true, autoClose: false, message: 'Export: preparing the file…' });
  try {
    for (;;) {
      const job = await call(api.GET('/leads/api/file-exports/{uuid}', { params: { path: { uuid } } }));
      if (job.status === 'failed') throw new Error(job.error ?? 'The export failed.');
      if (job.status === 'done') {
        const { data, response } = await api.POST('/leads/api/file-exports/download', {
          body: { uuid },
          parseAs: 'blob',
        });
        if (!response.ok || !data) throw new Error(`The download answered ${response.status}.`);
        const link = document.createElement('a');
        link.href = URL.createObjectURL(data as Blob);
        link.download = job.file_name ?? 'contacts.csv';
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
        notifications.update({
          id,
          loading: false,
          color: 'green',
          autoClose: 5000,
          message: `Export ready: ${job.rows_count ?? 0} contacts, downloaded as ${link.download}.`,
        });
        return;
      }
      notifications.update({ id, message: `Export: ${job.status}…` });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  } catch (error) {
    notifications.update({ id, loading: false, color: 'red', autoClose: 8000, message: messageOf(error) });
  }
}
