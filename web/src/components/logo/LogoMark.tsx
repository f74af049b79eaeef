// The product mark: a handset inside a routing ring. Drawn here, no external asset.
import { useTheme } from '@mui/material/styles';

export default function LogoMark({ size = 35 }: { size?: number }) {
  const theme = useTheme();
  const main = theme.palette.primary.main;
  const light = theme.palette.primary.light;
  return (
    <svg width={size} height={size} viewBox="0 0 36 36" role="img" aria-hidden="true" focusable="false">
      <circle
        cx="18"
        cy="18"
        r="16"
        fill="none"
        stroke={light}
        strokeWidth="3"
        strokeDasharray="70 31"
        strokeLinecap="round"
      />
      <circle cx="18" cy="18" r="11" fill={main} />
      <path
        d="M14.2 12.6c.5-.4 1.2-.3 1.6.2l1.3 1.8c.3.5.3 1.1-.1 1.5l-.8.8c.6 1.3 1.6 2.4 2.9 3l.8-.8c.4-.4 1-.5 1.5-.1l1.8 1.3c.5.4.6 1.1.2 1.6l-.8 1c-.6.7-1.6 1-2.5.6-3.1-1.2-5.5-3.6-6.7-6.7-.3-.9-.1-1.9.6-2.5z"
        fill="#fff"
      />
    </svg>
  );
}
