export default function ({ data }) {
  keepCookie(data);
}
