import { useEffect, useState } from "react";

/** False in the server's HTML and in the first render in the browser, so both render the same. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
