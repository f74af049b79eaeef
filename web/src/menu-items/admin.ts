// Admin menu (role 1), spec §2.
import {
  DashboardOutlined,
  UserOutlined,
  TeamOutlined,
  ClusterOutlined,
  NotificationOutlined,
  AimOutlined,
  SafetyCertificateOutlined,
  PhoneOutlined,
  StopOutlined,
  BarChartOutlined,
  CustomerServiceOutlined,
  ProfileOutlined,
  DollarOutlined,
  PlusCircleOutlined,
  WalletOutlined,
  FileDoneOutlined
} from '@ant-design/icons';
import { type Menu, menuItem as item } from './item';

const adminMenu: Menu = {
  items: [
    {
      id: 'group-main',
      title: 'Main',
      type: 'group',
      children: [
        item('dashboard', 'Dashboard', '/dashboard', DashboardOutlined),
        item('customer', 'User', '/customer', UserOutlined),
        item('buyer', 'Buyer', '/buyer', TeamOutlined),
        item('manage-trunk', 'Trunk', '/manage-trunk', ClusterOutlined)
      ]
    },
    {
      id: 'group-feature',
      title: 'Feature',
      type: 'group',
      children: [
        item('campaign', 'Campaign', '/campaign', NotificationOutlined),
        item('target', 'Target', '/target', AimOutlined),
        item('ivr', 'IVR Auth', '/ivr', SafetyCertificateOutlined)
      ]
    },
    {
      id: 'group-number',
      title: 'Number',
      type: 'group',
      children: [
        item('manage-number', 'Number', '/manage-number', PhoneOutlined),
        item('block-number', 'Block Number', '/block-number', StopOutlined)
      ]
    },
    {
      id: 'group-report',
      title: 'Report',
      type: 'group',
      children: [
        item('report', 'Report', '/report', BarChartOutlined),
        item('live-calls', 'Live Calls', '/live-calls', CustomerServiceOutlined)
      ]
    },
    {
      id: 'group-billing',
      title: 'Billing',
      type: 'group',
      children: [
        item('tariff', 'Tariff', '/tariff', ProfileOutlined),
        item('rate-card', 'Rate Card', '/rate-card', DollarOutlined),
        item('topup', 'Topup', '/topup', PlusCircleOutlined),
        item('wallet', 'Wallet', '/wallet', WalletOutlined),
        item('invoice', 'Invoice', '/invoice', FileDoneOutlined)
      ]
    }
  ]
};

export default adminMenu;
