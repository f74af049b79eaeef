// Theme customisation: palette preset + light/dark mode, Public Sans, breakpoints and
// one override file per MUI component (themes/overrides).
import { type ReactElement, type ReactNode, createContext, useCallback, useContext, useMemo, useState } from 'react';
import { type Theme, createTheme, ThemeProvider, StyledEngineProvider } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';

import { BREAKPOINTS, HEADER_HEIGHT, TOOLBAR_PADDING_Y, type ThemeMode, themeDefaults } from '../config';
import { getStoredThemeMode, setStoredThemeMode } from '../utils/storage';
import buildPalette from './palette';
import typography from './typography';
import customShadows from './shadows';
import componentsOverrides from './overrides';

export function buildTheme(mode: ThemeMode = 'dark', presetColor: string = themeDefaults.presetColor): Theme {
  const paletteTheme = createTheme({ palette: buildPalette(mode, presetColor) });
  const theme = createTheme({
    breakpoints: { values: { ...BREAKPOINTS } },
    direction: themeDefaults.themeDirection,
    mixins: { toolbar: { minHeight: HEADER_HEIGHT, paddingTop: TOOLBAR_PADDING_Y, paddingBottom: TOOLBAR_PADDING_Y } },
    palette: buildPalette(mode, presetColor),
    customShadows: customShadows(paletteTheme.palette),
    typography: typography(themeDefaults.fontFamily),
    shape: { borderRadius: 4 }
  });
  theme.components = componentsOverrides(theme);
  return theme;
}

/** The appearance in use, and how to change it (the profile menu's switch). */
export interface ThemeModeControl {
  mode: ThemeMode;
  setMode: (next: ThemeMode) => void;
  toggleMode: () => void;
}

const ThemeModeContext = createContext<ThemeModeControl>({ mode: 'dark', setMode: () => {}, toggleMode: () => {} });

export function useThemeMode(): ThemeModeControl {
  return useContext(ThemeModeContext);
}

interface ThemeCustomizationProps {
  children?: ReactNode;
  presetColor?: string;
}

export default function ThemeCustomization({
  children,
  presetColor = themeDefaults.presetColor
}: ThemeCustomizationProps): ReactElement {
  const [mode, setModeState] = useState(getStoredThemeMode);

  const setMode = useCallback((next: ThemeMode) => {
    const value: ThemeMode = next === 'light' ? 'light' : 'dark';
    setStoredThemeMode(value);
    setModeState(value);
  }, []);

  const toggleMode = useCallback(() => setMode(mode === 'dark' ? 'light' : 'dark'), [mode, setMode]);

  const theme = useMemo(() => buildTheme(mode, presetColor), [mode, presetColor]);
  const ctx = useMemo(() => ({ mode, setMode, toggleMode }), [mode, setMode, toggleMode]);

  return (
    <StyledEngineProvider injectFirst>
      <ThemeModeContext.Provider value={ctx}>
        <ThemeProvider theme={theme}>
          <CssBaseline enableColorScheme />
          {children}
        </ThemeProvider>
      </ThemeModeContext.Provider>
    </StyledEngineProvider>
  );
}
