// Stand-in types for utils/navigation.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/navigation.ts lands.
export declare function hardNavigate(url: string): void;
export declare function reloadPage(): void;
