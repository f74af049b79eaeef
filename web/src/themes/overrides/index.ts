// Theme component overrides: one file per MUI component.
import type { Theme } from '@mui/material/styles';
import Alert from './Alert';
import AppBar from './AppBar';
import Badge from './Badge';
import Button from './Button';
import ButtonBase from './ButtonBase';
import ButtonGroup from './ButtonGroup';
import CardContent from './CardContent';
import Checkbox from './Checkbox';
import Chip from './Chip';
import Drawer from './Drawer';
import IconButton from './IconButton';
import InputLabel from './InputLabel';
import LinearProgress from './LinearProgress';
import Link from './Link';
import ListItemButton from './ListItemButton';
import ListItemIcon from './ListItemIcon';
import OutlinedInput from './OutlinedInput';
import Paper from './Paper';
import Popover from './Popover';
import Tab from './Tab';
import TableCell from './TableCell';
import Tabs from './Tabs';
import Toolbar from './Toolbar';
import Tooltip from './Tooltip';
import Typography from './Typography';

const overrides: ReadonlyArray<(theme: Theme) => NonNullable<Theme['components']>> = [
  Alert,
  AppBar,
  Badge,
  Button,
  ButtonBase,
  ButtonGroup,
  CardContent,
  Checkbox,
  Chip,
  Drawer,
  IconButton,
  InputLabel,
  LinearProgress,
  Link,
  ListItemButton,
  ListItemIcon,
  OutlinedInput,
  Paper,
  Popover,
  Tab,
  TableCell,
  Tabs,
  Toolbar,
  Tooltip,
  Typography
];

export default function componentsOverrides(theme: Theme): NonNullable<Theme['components']> {
  return Object.assign({}, ...overrides.map((override) => override(theme)));
}
