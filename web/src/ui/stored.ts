/** A value useStoredState keeps in this browser (JSON under `leadflow.<key>`), read outside React. */
export function readStored<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(`leadflow.${key}`);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}
