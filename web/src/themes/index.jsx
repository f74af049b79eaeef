// Theme customisation: palette preset + light/dark mode, Public Sans, breakpoints and
// one override file per MUI component (themes/overrides).
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { createTheme, ThemeProvider, StyledEngineProvider } from '@mui/material/styles';
import CssBaseline from '@mui/material/CssBaseline';

import { BREAKPOINTS, HEADER_HEIGHT, TOOLBAR_PADDING_Y, themeDefaults } from '../config';
import { getStoredThemeMode, setStoredThemeMode } from '../utils/storage';
import buildPalette from './palette';
import typography from './typography';
import customShadows from './shadows';
import componentsOverrides from './overrides';

export function buildTheme(mode = 'dark', presetColor = themeDefaults.presetColor) {
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

const ThemeModeContext = createContext({ mode: 'dark', setMode: () => {}, toggleMode: () => {} });

export function useThemeMode() {
  return useContext(ThemeModeContext);
}

export default function ThemeCustomization({ children, presetColor = themeDefaults.presetColor }) {
  const [mode, setModeState] = useState(getStoredThemeMode);

  const setMode = useCallback((next) => {
    const value = next === 'light' ? 'light' : 'dark';
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
