package latent

// MStepData is mstepData for the external tests.
var MStepData = mstepData
