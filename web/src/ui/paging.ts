/** Rows per page of a server-paged table (VirtualTable), and of a first page read ahead of it. */
export const PAGE_SIZE = 100;
