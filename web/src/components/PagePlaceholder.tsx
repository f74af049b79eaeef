// Stand-in content for a screen whose real content comes later: its title and a short note.
import { useEffect, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import MainCard from './MainCard';
import { APP_NAME } from '../config';

export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} | ${APP_NAME}` : APP_NAME;
  }, [title]);
}

export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2.5, flexWrap: 'wrap' }}
    >
      <Typography variant="h4" component="h1" data-testid="page-title">
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

export default function PagePlaceholder({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <PageTitle title={title} />
      <MainCard>
        <Typography variant="body1" color="text.secondary">
          {description || `The ${title} screen is being built.`}
        </Typography>
      </MainCard>
    </>
  );
}
