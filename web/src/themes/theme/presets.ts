// Palette presets. Each preset names a primary seed colour; the 10 shades of every
// semantic colour are generated from seeds with @ant-design/colors (light and dark variants).

export const PRESET_PRIMARY: Record<string, string> = {
  default: '#1677ff',
  theme1: '#3366ff',
  theme2: '#7265e6',
  theme3: '#068e44',
  theme4: '#3c64d0',
  theme5: '#f27013',
  theme6: '#2aa1af',
  theme7: '#00a854',
  theme8: '#009688'
};

export const SEMANTIC_SEEDS = {
  secondary: '#8c8c8c',
  error: '#f5222d',
  warning: '#faad14',
  info: '#13c2c2',
  success: '#52c41a'
};

export const PRESET_NAMES: string[] = Object.keys(PRESET_PRIMARY);
