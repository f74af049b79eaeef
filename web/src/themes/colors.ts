// Semantic colours that components can be given (spec §9).
export const SEMANTIC_COLORS = ['primary', 'secondary', 'error', 'info', 'success', 'warning'] as const;

export type SemanticColor = (typeof SEMANTIC_COLORS)[number];
