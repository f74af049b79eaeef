# Sourced by the scripts here: DEBIAN_MIRROR, the Debian archive this machine's apt already uses (a
# one-line or deb822 source, the first that is not the security archive), else deb.debian.org.
DEBIAN_MIRROR=${DEBIAN_MIRROR:-$(grep -hsE '^(deb |URIs:)' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources | grep -v security | grep -oE 'https?://[^ ]+/debian/?' | head -n1 || true)}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
