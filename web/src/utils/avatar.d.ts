// Stand-in types for utils/avatar.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/avatar.ts lands.
export declare const AVATAR_COLORS: readonly [
  '#1677ff',
  '#7265e6',
  '#f56a00',
  '#00a2ae',
  '#52c41a',
  '#eb2f96',
  '#faad14',
  '#13c2c2',
  '#f5222d'
];
export declare function avatarColorIndex(name: string | null | undefined): number;
export declare function avatarColor(name: string | null | undefined): string;
export declare function avatarLetter(name: string | null | undefined): string;
