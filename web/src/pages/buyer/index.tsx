// Buyers: the customer's clients who take its calls, each with a sign-in of its own to see its
// calls and targets (the admin sees every customer's). Add, edit, activate and delete.
import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { ApiOutlined, MailOutlined, PlusOutlined } from '@ant-design/icons';

import { DeleteConfirm, StatusAndActionCells } from '../../components/EntityRowParts';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import WebhooksDialog from '../../components/WebhooksDialog';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { buyersDetails, buyersInvite, buyersRemove, buyersStatus, type BuyerOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import BuyerDialog from './BuyerDialog';
import SignInState from './SignInState';

const fetchBuyers = (query: PageQuery) => call(buyersDetails({ query: listQuery(query) }));

const buyerCalls: EntityCalls = {
  setStatus: (id, status) => call(buyersStatus({ path: { id }, body: { status } })),
  remove: (id) => call(buyersRemove({ path: { id } }))
};

export default function BuyerPage() {
  const admin = isAdmin(getStoredUser());
  const list = usePagedList(fetchBuyers, {
    failure: 'Buyers could not be loaded.'
  });
  const { rows, setError, search, setSearch, reload } = list;
  const actions = useEntityActions<BuyerOut>(buyerCalls, 'Buyer', {
    reload,
    setError
  });
  const { notice, setNotice, editing, setEditing, saved } = actions;
  const [hooked, setHooked] = useState<BuyerOut | null>(null); // the buyer whose webhooks are shown
  const timezone = getStoredUser()?.timezone;

  // A link by mail to choose the sign-in's password: sent, sent again, or the sign-in made.
  const invite = async (row: BuyerOut) => {
    try {
      const answer = (await buyersInvite({ path: { id: row.id } })).data;
      setNotice(answer.message);
      reload();
    } catch (err) {
      setError(failureMessage(err, 'The invitation could not be sent.'));
    }
  };

  return (
    <>
      <PageTitle title="Buyer">
        <Button variant="contained" startIcon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="buyer-add">
          Add buyer
        </Button>
      </PageTitle>
      <ListCard
        name="buyer"
        title="Buyers"
        secondary={<SearchBox label="Search buyers" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={['Name', admin && 'Customer', 'Sign-in email', 'Sign-in', 'Phone', 'Active', ['Action', 'right']]}
        emptyText="No buyers yet: add the first one who takes your calls."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="buyer-row" data-name={row.name}>
            <TableCell>{row.name}</TableCell>
            {admin && <TableCell>{row.user_id}</TableCell>}
            <TableCell>{row.email}</TableCell>
            <TableCell>
              <SignInState buyer={row} timezone={timezone} />
            </TableCell>
            <TableCell>{row.phone ?? '—'}</TableCell>
            <StatusAndActionCells name="buyer" row={row} actions={actions}>
              {row.sign_in !== 'active' && (
                <Tooltip
                  title={row.sign_in === 'invited' ? 'Send the invitation again' : 'Invite to choose a password'}
                >
                  <IconButton
                    size="small"
                    color="primary"
                    aria-label={`Invite ${row.name}`}
                    onClick={() => void invite(row)}
                    data-testid="buyer-invite"
                  >
                    <MailOutlined />
                  </IconButton>
                </Tooltip>
              )}
              <Tooltip title="Webhooks">
                <IconButton
                  size="small"
                  color="primary"
                  aria-label={`Webhooks of ${row.name}`}
                  onClick={() => setHooked(row)}
                  data-testid="buyer-webhooks"
                >
                  <ApiOutlined />
                </IconButton>
              </Tooltip>
            </StatusAndActionCells>
          </TableRow>
        ))}
      </ListCard>
      <BuyerDialog
        open={editing !== null}
        buyer={editing?.id ? editing : null}
        admin={admin}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      {hooked && (
        <WebhooksDialog
          owner={{ buyer_id: hooked.id }}
          title={`Webhooks of ${hooked.name}`}
          onClose={() => setHooked(null)}
        />
      )}
      <DeleteConfirm
        noun="buyer"
        actions={actions}
        question={(row) =>
          `Delete buyer ${row.name}, its targets and its own sign-in${row.sign_in === 'none' ? ' (it has none)' : ''}? A buyer whose targets took calls can't be deleted; deactivate it instead.`
        }
      />
    </>
  );
}
