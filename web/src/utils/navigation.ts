// Full-page navigation helpers. Kept in one module so unit tests can replace them
// (jsdom does not implement navigation).

export function hardNavigate(url: string): void {
  window.location.assign(url);
}

export function reloadPage(): void {
  window.location.reload();
}
