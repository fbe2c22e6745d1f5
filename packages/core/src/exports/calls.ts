/** @threadlens/core/calls: the record of every model call and attempt (writer, reader, trace) and token calibration. */

export type {
  CallAttempt,
  CallLog,
  CallAttemptError,
  CallAttemptStatus,
  CallHashes,
  CallRecordOptions,
  CallTiming,
  CallTraceRow,
  CalibrationSample,
  CalibrationVerdict,
  ReadCallRecord,
  ReplayCallOptions,
  ReportedUsage,
  TokenCalibration,
  CallUsage,
  RecordedCall,
} from '../calls/index'
export {
  addCalibrationSample,
  calibrationSampleOf,
  calibratedPromptBudget,
  calibrationDefaults,
  calibrationVerdict,
  callHashes,
  callRecord,
  callTrace,
  CallParts,
  maxAttemptErrorLength,
  readCallRecords,
  StoredHashes,
} from '../calls/index'
