// Avatar colour (spec §9): one of 9 fixed colours, picked by the first character code of the name.

export const AVATAR_COLORS = [
  '#1677ff', // blue
  '#7265e6', // violet
  '#f56a00', // orange
  '#00a2ae', // teal
  '#52c41a', // green
  '#eb2f96', // magenta
  '#faad14', // gold
  '#13c2c2', // cyan
  '#f5222d' // red
] as const;

export function avatarColorIndex(name: string | null | undefined): number {
  const text = String(name ?? '');
  if (!text) return 0;
  return text.charCodeAt(0) % AVATAR_COLORS.length;
}

export function avatarColor(name: string | null | undefined): string {
  return AVATAR_COLORS[avatarColorIndex(name)] ?? AVATAR_COLORS[0];
}

export function avatarLetter(name: string | null | undefined): string {
  const text = String(name ?? '').trim();
  return text ? text.charAt(0).toUpperCase() : '?';
}
