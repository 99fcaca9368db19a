import { useLocalStorage } from '@mantine/hooks';

/** State kept in this browser (column choices, the last view), per key. */
export function useStoredState<T>(key: string, initial: T) {
  return useLocalStorage<T>({
    key: `leadflow.${key}`,
    defaultValue: initial,
    getInitialValueInEffect: false,
  });
}
