import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// A render waited for may take seconds on a 2-core machine busy with other suites: waits end as
// soon as their condition holds, so a long bound only spares a loaded machine a false failure.
configure({ asyncUtilTimeout: 20000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

if (!window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent() {
      return false;
    }
  });
}
