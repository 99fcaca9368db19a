// A seat's proxy: shown in the seats table and changed in a dialog (POST .../set-proxy). The browser goes out
// through it; a change restarts the seat's browser. A stored password is never shown again.

import type { paths } from '@leadflow/sdk';
import {
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api';
import { fieldMessage } from '../../ui/field-error';

type Seat = Pick<
  paths['/browsers/api/linkedin-browsers/{id}']['get']['responses']['200']['content']['application/json'],
  'id' | 'custom_proxy_config' | 'proxy_country_code'
>;
type ProxyType = 'http' | 'https' | 'socks5';

/** The seat's proxy in words: "http://host:port (user) · DE", or "None". */
export function proxyLabel(seat: Seat): string {
  const proxy = seat.custom_proxy_config[0];
  const where = proxy
    ? `${proxy.type}://${proxy.host}:${proxy.port}${proxy.username ? ` (${proxy.username})` : ''}`
    : 'None';
  return seat.proxy_country_code ? `${where} · ${seat.proxy_country_code}` : where;
}

const FIELDS = ['type', 'host', 'port', 'username', 'password'] as const;

export function SeatProxyDialog(props: { seat: Seat | undefined; who: string; onClose: () => void }) {
  const seat = props.seat;
  return (
    <Modal opened={seat !== undefined} onClose={props.onClose} title={`Proxy of ${props.who}`}>
      {seat && <ProxyForm key={seat.id} seat={seat} onClose={props.onClose} />}
    </Modal>
  );
}

function ProxyForm(props: { seat: Seat; onClose: () => void }) {
  const queryClient = useQueryClient();
  const current = props.seat.custom_proxy_config[0];
  const [type, setType] = useState<ProxyType | 'none'>(current?.type ?? 'none');
  const [host, setHost] = useState(current?.host ?? '');
  const [port, setPort] = useState<number | string>(current?.port ?? '');
  const [username, setUsername] = useState(current?.username ?? '');
  const [password, setPassword] = useState('');
  const [country, setCountry] = useState(props.seat.proxy_country_code ?? '');
  const save = useMutation({
    mutationFn: () =>
      call(
        api.POST('/browsers/api/linkedin-browsers/{id}/set-proxy', {
          params: { path: { id: props.seat.id } },
          body: {
            proxy_country_code: country.trim() || null,
            custom_proxy_config:
              type === 'none'
                ? null
                : {
                    type,
                    host: host.trim(),
                    port: typeof port === 'number' ? port : Number(port) || 0,
                    ...(username.trim() ? { username: username.trim() } : {}),
                    ...(password ? { password } : {}),
                  },
          },
        }),
      ),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Proxy saved; the seat’s browser restarts with it.' });
      void queryClient.invalidateQueries({ queryKey: ['seats'] });
      props.onClose();
    },
  });
  const error = (field: string) =>
    fieldMessage(save.error, `custom_proxy_config.${field}`) ?? fieldMessage(save.error, field);
  const named = [...FIELDS.map(error), fieldMessage(save.error, 'proxy_country_code')].some(Boolean);

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  return (
    <form onSubmit={submit}>
      <Stack gap="sm">
        <Select
          label="Proxy type"
          data={[
            { value: 'none', label: 'No proxy (the worker’s own connection)' },
            { value: 'http', label: 'HTTP' },
            { value: 'https', label: 'HTTPS' },
            { value: 'socks5', label: 'SOCKS5 (no user name or password)' },
          ]}
          value={type}
          onChange={(value) => setType((value ?? 'none') as ProxyType | 'none')}
          allowDeselect={false}
          error={error('type')}
        />
        {type !== 'none' && (
          <>
            <TextInput
              label="Host"
              placeholder="proxy.example.com"
              value={host}
              onChange={(e) => setHost(e.currentTarget.value)}
              error={error('host')}
            />
            <NumberInput
              label="Port"
              value={port}
              onChange={setPort}
              min={1}
              max={65535}
              error={error('port')}
            />
            <TextInput
              label="User name"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              error={error('username')}
            />
            <PasswordInput
              label="Password"
              description={
                current?.has_password
                  ? 'A password is stored but never shown: type it again, or it is removed.'
                  : undefined
              }
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={error('password')}
            />
          </>
        )}
        <TextInput
          label="Proxy country"
          description="Two letters (e.g. DE); recorded with the seat"
          value={country}
          onChange={(e) => setCountry(e.currentTarget.value)}
          error={fieldMessage(save.error, 'proxy_country_code')}
        />
        {save.error && !named && (
          <Alert color="red" role="alert">
            {save.error.message}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          Saving restarts the seat’s browser with the new proxy; the login link keeps working.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save proxy
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
