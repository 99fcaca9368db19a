export interface WorkerHeartbeatsTable {
  worker_id: string;
  process_id: string;
  heartbeat_at: Date;
}

export interface JobsTables {
  worker_heartbeats: WorkerHeartbeatsTable;
}
