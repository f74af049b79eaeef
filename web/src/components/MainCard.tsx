import type { ReactNode } from 'react';
import Card, { type CardProps } from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';

interface MainCardProps extends Omit<CardProps, 'title' | 'content'> {
  title?: ReactNode;
  secondary?: ReactNode;
  /** false: the children go straight in the card, without CardContent's padding */
  content?: boolean;
  contentSx?: SxProps<Theme>;
}

export default function MainCard({
  title,
  secondary,
  children,
  content = true,
  sx,
  contentSx,
  ...others
}: MainCardProps) {
  return (
    <Card
      elevation={0}
      sx={[{ border: '1px solid', borderColor: 'divider', borderRadius: 2 }, ...(Array.isArray(sx) ? sx : [sx])]}
      {...others}
    >
      {title && (
        <CardHeader
          sx={{ p: 2.5, '& .MuiCardHeader-action': { m: '0 auto', alignSelf: 'center' } }}
          title={typeof title === 'string' ? <Typography variant="h5">{title}</Typography> : title}
          action={secondary}
        />
      )}
      {title && <Divider />}
      {content ? <CardContent sx={contentSx}>{children}</CardContent> : children}
    </Card>
  );
}
