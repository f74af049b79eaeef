// User menu (every role other than 1), spec §2. The sidebar is not shown to buyers (role 3).
import {
  DashboardOutlined,
  StopOutlined,
  PhoneOutlined,
  TeamOutlined,
  NotificationOutlined,
  AimOutlined,
  SafetyCertificateOutlined,
  CustomerServiceOutlined,
  BarChartOutlined,
  WalletOutlined,
  FileDoneOutlined
} from '@ant-design/icons';
import { type Menu, menuItem as item } from './item';

const userMenu: Menu = {
  items: [
    {
      id: 'group-main',
      title: 'Main',
      type: 'group',
      children: [
        item('dashboard', 'Dashboard', '/dashboard', DashboardOutlined),
        item('block-number', 'Block Number', '/block-number', StopOutlined),
        item('number', 'Number', '/number', PhoneOutlined),
        item('buyer', 'Buyer', '/buyer', TeamOutlined)
      ]
    },
    {
      id: 'group-feature',
      title: 'Feature',
      type: 'group',
      children: [
        item('campaign', 'Campaign', '/campaign', NotificationOutlined),
        item('target', 'Target', '/target', AimOutlined),
        item('user_ivr', 'IVR Auth', '/user_ivr', SafetyCertificateOutlined)
      ]
    },
    {
      id: 'group-report',
      title: 'Report',
      type: 'group',
      children: [
        item('live-calls', 'Live Calls', '/live-calls', CustomerServiceOutlined),
        item('report', 'Report', '/report', BarChartOutlined)
      ]
    },
    {
      id: 'group-billing',
      title: 'Billing',
      type: 'group',
      children: [
        item('wallet', 'Wallet', '/wallet', WalletOutlined),
        item('invoice', 'Invoice', '/invoice', FileDoneOutlined)
      ]
    }
  ]
};

export default userMenu;
